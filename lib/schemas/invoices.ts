import { z } from 'zod';
import { oneOf } from './fields';
import { limit, LIST_LIMIT_DEFAULT } from './lifecycle';
import { cursor } from './list';
import { keysetList } from './list';

// Invoices (lib/billing/invoices.ts, docs/decisions/invoices.md): GET /invoices, GET /invoices/{id}, the test path's
// POST /invoices/close, the invoice.created webhook, and the portal's Billing page.

export const INVOICE_LIST_PARAMETERS = ['limit', 'cursor'] as const;

export const ZListInvoicesQuery = z
  .strictObject({ limit, cursor })
  .transform((q) => ({ limit: q.limit ?? LIST_LIMIT_DEFAULT, cursor: q.cursor || undefined }));

export type TListInvoicesQuery = z.output<typeof ZListInvoicesQuery>;

const money = z.string().meta({ description: 'An exact decimal with two places, e.g. `"12.50"` or `"-3.00"`.' });

export const ZInvoiceServiceTotal = z.object({
  service: z.string(),
  lines: z.number().int(),
  amount: money,
});

export const ZInvoice = z.object({
  id: z.string().meta({ description: 'The invoice id (`inv_…`).' }),
  object: z.literal('invoice'),
  number: z.number().int().meta({
    description: "1, 2, 3, … per account and environment, without gaps: a test invoice's numbers are its own.",
  }),
  test: z.boolean().meta({ description: "True for the test environment's invoices: nothing on them is owed." }),
  period_kind: z.enum(['month', 'week', 'on_demand']).meta({
    description:
      "`month` or `week` (the account's billing period, in its close-out time zone); `on_demand` for a test-path close (POST /invoices/close).",
  }),
  period_start: z.string().meta({ format: 'date-time' }),
  period_end: z.string().meta({
    format: 'date-time',
    description: 'Exclusive. Every entry before it not yet invoiced is on this invoice, those of earlier periods included.',
  }),
  time_zone: z.string().meta({ description: 'The IANA time zone the period was read in.' }),
  currency: z.string(),
  total: money.meta({ description: '`charges` + `adjustments` − `voids`: the sum of its lines.' }),
  line_count: z.number().int(),
  totals: z.object({
    charges: money.meta({ description: 'What the packages accepted cost.' }),
    adjustments: money.meta({ description: 'Re-rating on what the hub measured, signed.' }),
    voids: money.meta({ description: 'Credits for charges invoiced before, whose packages were cancelled (a positive amount).' }),
    by_service: z.array(ZInvoiceServiceTotal),
  }),
  manifest_count: z.number().int().meta({ description: 'Manifests with a line on it (the PDF totals each).' }),
  issued_at: z.string().meta({ format: 'date-time' }),
  lines_path: z.string().meta({ description: "The API path of its lines as CSV, under this environment's base." }),
  document_path: z.string().meta({ description: "The API path of its PDF, under this environment's base." }),
});

export const ZInvoiceList = keysetList(ZInvoice);

/** POST /invoices/close: the invoice, or null when nothing was left to invoice. */
export const ZInvoiceCloseResponse = z.object({
  object: z.literal('invoice_close'),
  invoice: ZInvoice.nullable(),
});

/** invoice.created: the invoice as GET /invoices/{id} answers it, with the event's name. */
export const ZInvoiceCreatedPayload = z.object({
  type: z.literal('invoice.created'),
  invoice: ZInvoice,
});

export const ZBillingSettingsRequest = z.strictObject({
  period: oneOf(['month', 'week'] as const, { required: true }),
});

export const ZBillingSettings = z.object({
  period: z.enum(['month', 'week']),
  time_zone: z.string(),
});

export type TInvoice = z.output<typeof ZInvoice>;
export type TInvoiceList = z.output<typeof ZInvoiceList>;
export type TInvoiceCloseResponse = z.output<typeof ZInvoiceCloseResponse>;
export type TBillingSettings = z.output<typeof ZBillingSettings>;

/** The portal's Billing page: what is not invoiced yet, and the adjustments among it with their reasons. */
export const ZOpenBillingPeriod = z.object({
  period_kind: z.enum(['month', 'week']),
  period_start: z.string(),
  period_end: z.string(),
  time_zone: z.string(),
  currency: z.string(),
  total: z.string(),
  line_count: z.number().int(),
  charges: z.string(),
  adjustments: z.string(),
  voids: z.string(),
  recent_adjustments: z.array(
    z.object({
      occurred_at: z.string(),
      tracking_number: z.string().nullable(),
      carrier_barcode: z.string(),
      service: z.string(),
      amount: z.string(),
      reason: z.string(),
    }),
  ),
});

export type TOpenBillingPeriod = z.output<typeof ZOpenBillingPeriod>;
