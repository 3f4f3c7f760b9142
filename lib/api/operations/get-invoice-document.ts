import 'server-only';
import { defineOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { loadInvoice } from '@/lib/billing/invoices';
import { invoiceDocumentData } from '@/lib/billing/invoice-document';
import { invoiceNumberText } from '@/lib/documents/text';
import { accountScope, pathParam } from '../context';
import { documentDoc, file, formatOf, rendered } from '../documents';

const doc = documentDoc(['pdf']);

export const getInvoiceDocumentOperation = defineOperation({
  id: 'getInvoiceDocument',
  method: 'GET',
  path: '/invoices/{id}/document',
  scope: 'billing:read',
  tag: 'Billing',
  summary: 'Invoice (PDF)',
  description:
    'The invoice as a PDF: its period, totals by kind, by service and by manifest, and the adjustments with their reasons; page n of N on ' +
    'every page. A test invoice says TEST on every page.',
  parameters: [PATH_PARAMETERS.invoiceId, ...doc.parameters],
  success: doc.success,
  errors: { ...doc.errors, '404': errorAnswer('No such invoice in this account and environment.') },
  handler: async (context) => {
    const format = formatOf(context, ['pdf']);
    const loaded = await loadInvoice({ ...accountScope(context), id: pathParam(context, 'id') });
    // On a render thread, admitted under the account's and the process's limits like every document.
    const bytes = await rendered(context, async () => ({
      document: 'invoice',
      invoice: await invoiceDocumentData(loaded, context.auth.accountId),
    }));
    return file(bytes, format, `${invoiceNumberText(loaded.invoice.number)}${loaded.invoice.test ? '-test' : ''}`);
  },
});
