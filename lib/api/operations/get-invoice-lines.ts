import 'server-only';
import { defineOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { loadInvoice } from '@/lib/billing/invoices';
import { invoiceLinesCsv } from '@/lib/spreadsheets/export-invoice-lines-csv';
import { accountScope, pathParam } from '../context';

export const getInvoiceLinesOperation = defineOperation({
  id: 'getInvoiceLines',
  method: 'GET',
  path: '/invoices/{id}/lines',
  scope: 'billing:read',
  tag: 'Billing',
  summary: "An invoice's lines (CSV)",
  description:
    'One row per ledger entry on the invoice, in the order they were written: `line_id`, `kind` (`charge`, `adjustment` or `void`), ' +
    '`occurred_at`, `manifest_id`, `tracking_number`, `carrier_barcode`, `service`, `amount` (signed, exact), `currency` and `reason` ' +
    "(an adjustment's). Streamed: any size. The amounts sum to the invoice's `total`.",
  parameters: [PATH_PARAMETERS.invoiceId],
  success: {
    kind: 'file',
    description: 'The lines.',
    contentTypes: ['text/csv'],
    headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"' } },
  },
  errors: { '404': errorAnswer('No such invoice in this account and environment.') },
  handler: async (context) => {
    const { invoice } = await loadInvoice({ ...accountScope(context), id: pathParam(context, 'id') });
    return {
      file: {
        bytes: invoiceLinesCsv(invoice.id),
        contentType: 'text/csv; charset=utf-8',
        fileName: `invoice-${invoice.number}-lines.csv`,
        disposition: 'attachment',
      },
    };
  },
});
