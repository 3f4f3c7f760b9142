import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, queryParameters } from '../openapi/parts';
import { INVOICE_LIST_PARAMETERS, ZInvoiceList, ZListInvoicesQuery } from '@/lib/schemas/invoices';
import { parseOperation } from '@/lib/schemas/parse';
import { listInvoices } from '@/lib/billing/invoices';
import { accountScope, queryOf } from '../context';

export const listInvoicesOperation = defineJsonOperation(ZInvoiceList, {
  id: 'listInvoices',
  method: 'GET',
  path: '/invoices',
  scope: 'billing:read',
  tag: 'Billing',
  summary: 'List invoices, newest first',
  description:
    "The account's invoices in this environment, a page at a time. An invoice is issued a few minutes after its period ends (a calendar month, or " +
    "an ISO week, in the account's close-out time zone), numbered 1, 2, 3, … without gaps, and never changes. A period without charges has none.",
  parameters: queryParameters(ZListInvoicesQuery),
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '422': errorAnswer('A parameter is invalid, unknown or repeated; `details` names it.') },
  handler: async (context) => {
    const query = parseOperation(ZListInvoicesQuery, queryOf(context, INVOICE_LIST_PARAMETERS));
    return { body: await listInvoices({ ...accountScope(context), query }) };
  },
});
