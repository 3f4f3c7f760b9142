import { closeInvoicePeriodOperation } from '@/lib/api/operations/close-invoice-period';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/invoices/close: the test environment's "close the period now", POST /invoices/close's own operation
// (404 in live, as on the API).
export const POST = portalOperation(closeInvoicePeriodOperation, { permission: 'billing:manage' });
