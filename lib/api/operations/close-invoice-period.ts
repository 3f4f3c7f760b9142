import 'server-only';
import { defineJsonOperation } from '../operation';
import { ZInvoiceCloseResponse } from '@/lib/schemas/invoices';
import { closeOpenPeriodNow } from '@/lib/billing/invoices';
import { accountScope } from '../context';

export const closeInvoicePeriodOperation = defineJsonOperation(ZInvoiceCloseResponse, {
  id: 'closeInvoicePeriod',
  method: 'POST',
  path: '/invoices/close',
  scope: 'billing:read',
  tag: 'Billing',
  summary: 'Close the open period now (test path only)',
  description:
    'Issues a test invoice now for everything not yet invoiced (`period_kind` `on_demand`, from the last invoice’s end to now), as the ' +
    'period’s close would, `invoice.created` included, so that an integration can be tried without waiting for the month. `invoice` is null ' +
    'when nothing was left to invoice (a second close at once: one invoice, the other null). The next invoice starts where this one ended. ' +
    'Not on the live path (404).',
  testOnly: true,
  success: { kind: 'json', status: 200, description: 'The invoice issued, or null.' },
  handler: async (context) => {
    const invoice = await closeOpenPeriodNow({ ...accountScope(context), now: new Date() });
    return { body: { object: 'invoice_close', invoice } };
  },
});
