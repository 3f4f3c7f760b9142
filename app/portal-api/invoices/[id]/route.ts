import { getInvoiceOperation } from '@/lib/api/operations/get-invoice';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/invoices/{id}: one invoice, GET /invoices/{id}'s own operation.
export const GET = portalOperation<{ id: string }>(getInvoiceOperation, { permission: 'billing:read' });
