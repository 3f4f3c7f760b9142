import { z } from 'zod';
import { decimal, iataCode, oneOf, postalCode } from './fields';
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
