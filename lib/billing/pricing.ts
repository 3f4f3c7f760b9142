// What a package costs at acceptance (docs/decisions/money.md). Pure, so the hot path adds arithmetic and one HMAC, no
// query. Acceptance never refuses a package over its price: it is an answer (unpriced, or priced afresh with a warning).
import type { Environment } from '@/lib/generated/prisma/enums';
import { cardInForce } from '@/lib/rating/card-versions';
import { parseDecimal, type Fixed } from '@/lib/rating/fixed';
import { priceParcel, type Parcel } from '@/lib/rating/price-parcel';
import { toPounds } from '@/lib/rating/quote-rates';
import type { RateCardData, WeightUnit } from '@/lib/rating/types';
import { CURRENCY, SERVICES, type ServiceName, type TCharge } from '@/lib/schemas/rate';
import { readQuoteId, type QuoteClaims, type QuoteKey, type QuoteReading } from './quote-id';

export interface PackageToPrice {
  /** As the package names it; matched to a card's service in any case. */
  service: string;
  manifestDate: Date;
  weight?: string;
  weightUnit?: string;
  length?: string;
  width?: string;
  height?: string;
  /** Postal codes for a zip card; airports (the container's) for an airport card. */
  fromPostal?: string;
  toPostal?: string;
  originAirport?: string;
  destinationAirport?: string;
  quoteId?: string;
}

export interface PricingContext {
  cards: readonly RateCardData[];
  keys: readonly QuoteKey[];
  accountId: string;
  environment: Environment;
  now: Date;
}

export interface Priced {
  charge: TCharge;
  /** Why a named quote was not used (the answer's `warnings`), with the path the caller gives. */
  quoteProblem?: string;
}

const SERVICE_BY_LOWER = new Map<string, ServiceName>(SERVICES.map((s) => [s.toLowerCase(), s]));

export function canonicalService(name: string): ServiceName | undefined {
  return SERVICE_BY_LOWER.get(name.trim().toLowerCase());
}

/** Lane codes as quotes and packages compare them: a ZIP+4 is its ZIP, a Canadian code without its space. */
export function laneCode(code: string | undefined): string {
  if (!code) return '';
  const c = code.trim().toUpperCase().replace(/[\s-]/g, '');
  return /^\d{9}$/.test(c) ? c.slice(0, 5) : c;
}

export interface NormalParcel {
  weightLb: Fixed;
  length: Fixed;
  width: Fixed;
  height: Fixed;
}

/** The parcel in exact pounds and inches, or what is missing. */
export function normalParcel(p: {
  weight?: string;
  weightUnit?: string;
  length?: string;
  width?: string;
  height?: string;
}): NormalParcel | string {
  const weight = p.weight === undefined ? undefined : parseDecimal(p.weight);
  const unit = (p.weightUnit ?? 'lb') as WeightUnit;
  const dims = [p.length, p.width, p.height].map((d) => (d === undefined ? undefined : parseDecimal(d)));
  const missing = [
    weight && weight.units > 0n ? null : 'weight',
    ...['length', 'width', 'height'].map((n, i) => (dims[i] && dims[i].units > 0n ? null : n)),
  ].filter(Boolean);
  if (missing.length > 0 || !weight) return `no ${missing.join(', ')} to price by`;
  const [length, width, height] = dims as [Fixed, Fixed, Fixed];
  return { weightLb: toPounds(weight, unit === 'kg' || unit === 'oz' ? unit : 'lb'), length, width, height };
}

function lane(card: RateCardData, pkg: PackageToPrice): { from?: string; to?: string } {
  return card.locationKind === 'airport'
    ? { from: pkg.originAirport, to: pkg.destinationAirport }
    : { from: pkg.fromPostal, to: pkg.toPostal };
}

let lastPricedMs = Number.NaN;
let lastPricedAt = '';

// A container prices a thousand packages at one moment: its text is made once.
function pricedAt(now: Date): string {
  const ms = now.getTime();
  if (ms !== lastPricedMs) {
    lastPricedMs = ms;
    lastPricedAt = now.toISOString();
  }
  return lastPricedAt;
}

/** A charge that could not be priced, and why (its amount null). */
export function unpriced(service: string, reason: string, now: Date): TCharge {
  return {
    status: 'unpriced',
    amount: null,
    currency: CURRENCY,
    service,
    card_version: null,
    zone: null,
    billable_weight: null,
    base: null,
    surcharges: [],
    quote_id: null,
    reason,
    priced_at: pricedAt(now),
  };
}

export function priceOnCard(
  card: RateCardData,
  parcel: NormalParcel,
  from: string | undefined,
  to: string | undefined,
  now: Date,
): TCharge {
  const outcome = priceParcel(card, { ...parcel, from, to } satisfies Parcel);
  if ('unpriced' in outcome) return { ...unpriced(card.service, outcome.unpriced, now), card_version: card.version };
  const p = outcome.price;
  return {
    status: 'priced',
    amount: p.amount,
    currency: CURRENCY,
    service: card.service,
    card_version: card.version,
    zone: p.zone,
    billable_weight: p.billableWeight,
    base: p.base,
    surcharges: p.surcharges,
    quote_id: null,
    reason: null,
    priced_at: pricedAt(now),
  };
}

const QUOTE_REASONS: Record<Exclude<QuoteReading, { ok: true }>['reason'], string> = {
  malformed: 'is not a quote id',
  forged: 'does not verify (altered, or not issued by this carrier)',
  other_account: 'was issued to another account',
  other_environment: 'was issued in the other environment',
  expired: 'has expired (quotes hold 24 hours)',
};

/** What differs between a quote and the package that names it, or undefined when the quote holds for it. */
export function quoteMismatch(
  claims: QuoteClaims,
  service: ServiceName,
  parcel: NormalParcel,
  from: string,
  to: string,
): string | undefined {
  if (claims.service !== service) return `was for ${claims.service}, the package ships ${service}`;
  if (claims.weightLb !== parcel.weightLb.toString())
    return `was for ${claims.weightLb} lb, the package weighs ${parcel.weightLb.toString()} lb`;
  const dims = [parcel.length, parcel.width, parcel.height].map((d) => d.toString()).join('×');
  const quoted = [claims.length, claims.width, claims.height].join('×');
  if (dims !== quoted) return `was for ${quoted} in, the package measures ${dims} in`;
  if (claims.from !== from || claims.to !== to)
    return `was for ${claims.from}→${claims.to}, the package goes ${from || '?'}→${to || '?'}`;
  return undefined;
}

export function pricePackage(ctx: PricingContext, pkg: PackageToPrice): Priced {
  const service = canonicalService(pkg.service);
  if (!service)
    return {
      charge: unpriced(pkg.service, `no rate card for service '${pkg.service}'`, ctx.now),
      ...quoteIgnored(pkg, 'the package is unpriced'),
    };
  const parcel = normalParcel(pkg);
  if (typeof parcel === 'string')
    return { charge: unpriced(service, parcel, ctx.now), ...quoteIgnored(pkg, 'the package is unpriced') };

  let quoteProblem: string | undefined;
  if (pkg.quoteId) {
    const reading = readQuoteId(ctx.keys, pkg.quoteId, { accountId: ctx.accountId, environment: ctx.environment, now: ctx.now });
    if (reading.ok) {
      const card = ctx.cards.find((c) => c.service === service && c.version === reading.claims.cardVersion);
      const at = card ? lane(card, pkg) : { from: undefined, to: undefined };
      const mismatch = card
        ? quoteMismatch(reading.claims, service, parcel, laneCode(at.from), laneCode(at.to))
        : `names ${service} card version ${reading.claims.cardVersion}, which is no longer active`;
      if (!mismatch && card) {
        const onCard = priceOnCard(card, parcel, at.from, at.to, ctx.now);
        // The quote's amount is what was promised; the card only itemises it.
        return { charge: { ...onCard, status: 'priced', reason: null, amount: reading.claims.amount, quote_id: pkg.quoteId } };
      }
      quoteProblem = mismatch;
    } else {
      quoteProblem = QUOTE_REASONS[reading.reason];
    }
  }
  const card = cardInForce(ctx.cards, service, pkg.manifestDate);
  const charge = card
    ? (() => {
        const at = lane(card, pkg);
        return priceOnCard(card, parcel, at.from, at.to, ctx.now);
      })()
    : unpriced(service, `no ${service} rate card is in force on ${pkg.manifestDate.toISOString().slice(0, 10)}`, ctx.now);
  return {
    charge,
    ...(quoteProblem
      ? {
          quoteProblem: `QuoteID ${quoteProblem}; ${charge.status === 'priced' ? 'priced at the rate card in force instead' : 'the package is unpriced'}`,
        }
      : {}),
  };
}

function quoteIgnored(pkg: PackageToPrice, why: string): { quoteProblem?: string } {
  return pkg.quoteId ? { quoteProblem: `QuoteID was not used: ${why}` } : {};
}
