// Framework-free: no Prisma, no Next, no HTTP. Every weight, size and amount is an exact Fixed (fixed.ts).
import { z } from 'zod';
import { SERVICES, type ServiceName } from '@/lib/schemas/rate';
import { compare, parseDecimal, type Fixed } from './fixed';

export type WeightUnit = 'lb' | 'kg' | 'oz';

// After the API's schema: "" and absent both mean absent.
export interface RateInput {
  weight: string;
  weightUnit: WeightUnit;
  fromZip?: string;
  toZip?: string;
  service?: ServiceName;
  /** Inches, decimal text. */
  length: string;
  width: string;
  height: string;
  origin?: string;
  destination?: string;
}

export interface RateQuote {
  carrier: string;
  service: ServiceName;
  amount: string;
  zone: number;
  billable_weight: string;
  delivery_days: number;
}

export interface RateResult {
  rates: RateQuote[];
  messages: { service: string; message: string }[];
}

export type LocationKind = 'zip' | 'airport';
export type SurchargeKind = 'percent' | 'flat' | 'per_lb';

export interface ZoneBand {
  zone: number;
  /** Upper bound in miles, inclusive; null = unbounded (only the last band). */
  maxMiles: number | null;
}

export interface WeightBreak {
  maxLb: Fixed;
  prices: Fixed[];
}

export interface Surcharge {
  code: string;
  label: string;
  kind: SurchargeKind;
  amount: Fixed;
}

export interface RateCardData {
  id?: string;
  service: ServiceName;
  carrier: string;
  active: boolean;
  locationKind: LocationKind;
  dimDivisor: Fixed;
  weightStepLb: Fixed;
  maxWeightLb: Fixed;
  zones: ZoneBand[];
  weightBreaks: WeightBreak[];
  surcharges: Surcharge[];
  deliveryDays: number[];
  sortOrder: number;
  /** The card's version for its service (1, 2, …) and when it comes into force (docs/decisions/money.md). */
  version: number;
  effectiveFrom: Date;
}

// Decimal columns arrive as Prisma Decimals (another decimal.js copy, so no instanceof) or strings, and Json columns
// hold decimal strings: each is read from its text, never through a binary float.

const DECIMAL_TEXT = /^\d+(\.\d+)?(e[+-]?\d+)?$/i;

function isTextObject(v: unknown): v is { toString(): string } {
  return typeof v === 'object' && v !== null && typeof v.toString === 'function';
}

const decimal = z.unknown().transform((v, ctx) => {
  const text = typeof v === 'string' || typeof v === 'number' || isTextObject(v) ? String(v) : '';
  const parsed = DECIMAL_TEXT.test(text) ? parseDecimal(text) : undefined;
  if (!parsed) {
    ctx.addIssue({ code: 'custom', message: `expected a non-negative decimal, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return parsed;
});
const positiveDecimal = decimal.refine((d) => d.units > 0n, 'must be greater than 0');

const zoneBand = z.object({
  zone: z.number().int().positive(),
  maxMiles: z.number().nonnegative().nullable(),
});

const weightBreak = z.object({ maxLb: positiveDecimal, prices: z.array(decimal).min(1) });

const surcharge = z.object({
  code: z.string().min(1),
  label: z.string().min(1),
  kind: z.enum(['percent', 'flat', 'per_lb']),
  amount: decimal,
});

export interface RateCardRow {
  id?: string;
  service: string;
  carrier?: string;
  active?: boolean;
  locationKind: string;
  dimDivisor: unknown;
  weightStepLb: unknown;
  maxWeightLb: unknown;
  zones: unknown;
  weightBreaks: unknown;
  surcharges: unknown;
  deliveryDays: unknown;
  sortOrder?: number;
  version?: number;
  effectiveFrom?: unknown;
}

/** What the migration gives a card that predates versions: version 1, in force since ever. */
export const FIRST_EFFECTIVE_FROM = new Date('2000-01-01T00:00:00Z');

// Defaults mirror the Prisma model so a seed create-input parses the same as a stored row.
export const rateCardSchema = z
  .object({
    id: z.string().optional(),
    service: z.enum(SERVICES),
    carrier: z.string().min(1).default('Carrier'),
    active: z.boolean().default(true),
    locationKind: z.enum(['zip', 'airport']),
    dimDivisor: positiveDecimal,
    weightStepLb: positiveDecimal,
    maxWeightLb: positiveDecimal,
    zones: z.array(zoneBand).min(1),
    weightBreaks: z.array(weightBreak).min(1),
    surcharges: z.array(surcharge),
    deliveryDays: z.array(z.number().int().nonnegative()),
    sortOrder: z.number().int().default(0),
    version: z.number().int().positive().default(1),
    effectiveFrom: z.coerce.date().default(() => FIRST_EFFECTIVE_FROM),
  })
  // Cross-field rules: these are what make a lookup in quoteRates always succeed.
  .superRefine((card, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    card.zones.forEach((band, i) => {
      const prev = card.zones[i - 1];
      const last = i === card.zones.length - 1;
      if (band.maxMiles === null && !last) issue(['zones', i, 'maxMiles'], 'only the last zone may be unbounded (null)');
      if (prev && prev.maxMiles !== null && band.maxMiles !== null && band.maxMiles <= prev.maxMiles)
        issue(['zones', i, 'maxMiles'], 'zones must be in ascending order of maxMiles');
    });
    if (card.deliveryDays.length !== card.zones.length)
      issue(['deliveryDays'], `expected ${card.zones.length} entries (one per zone), got ${card.deliveryDays.length}`);
    card.weightBreaks.forEach((b, i) => {
      const prev = card.weightBreaks[i - 1];
      if (prev && compare(b.maxLb, prev.maxLb) <= 0)
        issue(['weightBreaks', i, 'maxLb'], 'weight breaks must be in ascending order of maxLb');
      if (b.prices.length !== card.zones.length)
        issue(['weightBreaks', i, 'prices'], `expected ${card.zones.length} prices (one per zone), got ${b.prices.length}`);
    });
    const heaviest = card.weightBreaks[card.weightBreaks.length - 1];
    if (heaviest && compare(heaviest.maxLb, card.maxWeightLb) < 0)
      issue(
        ['maxWeightLb'],
        `the last weight break (${heaviest.maxLb.toString()} lb) must cover maxWeightLb (${card.maxWeightLb.toString()} lb)`,
      );
  }) satisfies z.ZodType<RateCardData>;
