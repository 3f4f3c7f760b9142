import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { ZInvoice } from '@/lib/schemas/invoices';
import { getInvoice } from '@/lib/billing/invoices';
import { accountScope, pathParam } from '../context';

export const getInvoiceOperation = defineJsonOperation(ZInvoice, {
  id: 'getInvoice',
  method: 'GET',
  path: '/invoices/{id}',
  scope: 'billing:read',
  tag: 'Billing',
  summary: 'One invoice',
  description:
    'Its totals by kind (charges, adjustments, voids) and by service; its lines are `lines_path` (CSV), its PDF `document_path`.',
  parameters: [PATH_PARAMETERS.invoiceId],
  success: { kind: 'json', status: 200, description: 'The invoice.' },
  errors: { '404': errorAnswer('No such invoice in this account and environment.') },
  handler: async (context) => ({ body: await getInvoice({ ...accountScope(context), id: pathParam(context, 'id') }) }),
});
