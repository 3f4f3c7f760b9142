import { getInvoiceLinesOperation } from '@/lib/api/operations/get-invoice-lines';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/invoices/{id}/lines: the invoice's lines as CSV (streamed), GET /invoices/{id}/lines's own operation.
export const GET = portalOperation<{ id: string }>(getInvoiceLinesOperation, { permission: 'billing:read' });
