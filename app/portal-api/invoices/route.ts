import { listInvoicesOperation } from '@/lib/api/operations/list-invoices';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/invoices: the Billing page's past invoices, GET /invoices's own operation.
export const GET = portalOperation(listInvoicesOperation, { permission: 'billing:read' });
