import { getInvoiceDocumentOperation } from '@/lib/api/operations/get-invoice-document';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/invoices/{id}/document: the invoice PDF, GET /invoices/{id}/document's own operation.
export const GET = portalOperation<{ id: string }>(getInvoiceDocumentOperation, { permission: 'billing:read' });
