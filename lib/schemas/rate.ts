import { z } from 'zod';
import { decimal, iataCode, oneOf, postalCode, text } from './fields';
import type { Aliases } from './parse';
import { fieldTree, ZWarnings } from './unknown-fields';

export const SERVICES = ['AirSkip', 'Carrier Express', 'Carrier Ground'] as const;
export type ServiceName = (typeof SERVICES)[number];
export const WEIGHT_UNITS = ['lb', 'kg', 'oz'] as const;

/** Every sample request spells `length` as `lenght`; both are accepted. */
export const RATE_ALIASES: Aliases = { length: ['lenght'] };

// POST /wf/rate. Which of from_zip/to_zip or origin/destination is needed depends on the rate
// card, so that check belongs to rating (lib/rating), which names the missing field.
const ZRateFields = z.object({
  weight: decimal({ required: true, maxDecimals: 3, max: 10_000 }),
  weight_unit: oneOf(WEIGHT_UNITS, { required: true }),
  from_zip: postalCode(),
  to_zip: postalCode(),
  service: oneOf(SERVICES),
  length: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  width: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  height: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  origin: iataCode(),
  destination: iataCode(),
});

export const ZRateRequest = ZRateFields.transform((r) => ({
  weight: r.weight,
  weightUnit: r.weight_unit,
  fromZip: r.from_zip,
  toZip: r.to_zip,
  service: r.service,
  length: r.length,
  width: r.width,
  height: r.height,
  origin: r.origin,
  destination: r.destination,
}));

// The answer to POST /wf/rate (lib/api/operations/quote-rates.ts). `amount` is text with two decimals, as published.
export const ZRateQuote = z.object({
  carrier: z.string().meta({ examples: ['Carrier'] }),
  service: z.enum(SERVICES),
  amount: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .meta({ description: 'Two decimals, as text.', examples: ['12.40'] }),
  zone: z.number().int(),
  billable_weight: z.string().meta({ description: 'Pounds.' }),
  delivery_days: z.number().int(),
  currency: z.string().meta({ description: 'ISO 4217; USD for every card today.', examples: ['USD'] }),
  card_version: z.number().int().meta({ description: "The version of the service's rate card that priced it." }),
  quote_id: z.string().meta({
    description:
      'Names this quote for 24 hours: send it as `package.QuoteID` (or `ContainerDetails[i].QuoteID`) to be priced at this amount while the package still matches it.',
    examples: ['qt_MXx0fGFCQ0RFRkdISUpLTHxzNWZ0aHwxfDF8MTIuNDB8M3wxMHw4fDZ8MTAwMDF8OTAyMTA.Yk3hQ2x9cT1mZ0p4dW5ZaQ'],
  }),
  quote_expires_at: z.string().meta({ description: 'When quote_id stops holding (24 hours after the quote).' }),
});

/** What POST /wf/rate reads, for naming what it ignored. */
export const RATE_FIELDS = fieldTree(ZRateFields.shape, RATE_ALIASES);

export const ZRateResponse = z.object({
  rates: z.array(ZRateQuote),
  warnings: ZWarnings,
  messages: z
    .array(z.object({ service: z.string(), message: z.string() }))
    .optional()
    .meta({ description: 'Present when a card was left out: why.' }),
});

export type TRateResponse = z.output<typeof ZRateResponse>;

/** A quote id a package names (`qt_…` from POST /wf/rate); one that does not hold prices the package afresh, with a warning. */
export function quoteId() {
  return text({ max: 700 });
}

/** Every amount today is in US dollars (the cards have no other currency). */
export const CURRENCY = 'USD';

const ZAmount = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ description: 'Two decimals, as text.', examples: ['12.40'] });

// A package's charge as reads show it (docs/decisions/money.md): priced at acceptance by the card version in force on
// its ManifestDate (or at the quote it named), unpriced with the reason, or voided when cancelled before possession.
export const ZCharge = z.object({
  status: z.enum(['priced', 'unpriced', 'voided']),
  amount: ZAmount.nullable().meta({ description: 'What the package costs now (after adjustments); null when unpriced.' }),
  currency: z.string().meta({ examples: ['USD'] }),
  service: z.string(),
  card_version: z.number().int().nullable().meta({ description: 'The rate card version that priced it.' }),
  zone: z.number().int().nullable(),
  billable_weight: z.string().nullable().meta({ description: 'Pounds.' }),
  base: ZAmount.nullable().meta({ description: 'The table price before surcharges.' }),
  surcharges: z.array(z.object({ code: z.string(), label: z.string(), amount: ZAmount })),
  quote_id: z.string().nullable().meta({ description: 'The quote it was priced at, when it named one that held.' }),
  reason: z.string().nullable().meta({ description: 'Why it is unpriced; null otherwise.' }),
  priced_at: z.string(),
  voided_at: z.string().nullable().optional(),
  adjustments: z
    .array(
      z.object({
        amount: ZAmount.meta({ description: 'after − before' }),
        reason: z.enum(['weight', 'dimensions', 'service']),
        scan_id: z.string().nullable(),
        occurred_at: z.string(),
      }),
    )
    .optional()
    .meta({ description: 'Re-ratings on what the hub measured at `received`, oldest first.' }),
});

export type TCharge = z.output<typeof ZCharge>;
