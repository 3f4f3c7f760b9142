// Pure rating in exact decimals, rounded once at the end: billable = max(actual, L×W×H ÷ dimDivisor) rounded up to the
// card's step; base = the first weight break covering it, in the zone's column; a percent surcharge takes the base only,
// so the order of a card's surcharges never changes the price; amount = total rounded half-up to cents.
// A ZIP or airport code given but unknown is a 422 even when no quoted card needs it: a typo must never quietly become
// "only AirSkip quoted". Only an absent one leaves a card out (with a `messages` entry).
import { AppError, validationError, type ErrorDetail } from '@/lib/errors/app-error';
import { ceilDivide, compare, divide, Fixed, parseDecimal, plus, round, shift, times, toFixedText } from './fixed';
import { airport, greatCircleMiles, postalCentroid, type LatLon } from './locations';
import type { LocationKind, RateCardData, RateInput, RateQuote, RateResult, SurchargeKind, WeightUnit, ZoneBand } from './types';

const LB_PER_KG = new Fixed(220462n, 5); // 2.20462
const LB_PER_OZ = new Fixed(625n, 4); // 1/16 = 0.0625 exactly, so ÷ 16 is a multiplication

export function toPounds(weight: string | Fixed, unit: WeightUnit): Fixed {
  const w = typeof weight === 'string' ? parseDecimalOrThrow(weight) : weight;
  if (unit === 'kg') return times(w, LB_PER_KG);
  if (unit === 'oz') return times(w, LB_PER_OZ);
  return w;
}

function parseDecimalOrThrow(text: string): Fixed {
  const d = parseDecimal(text);
  if (!d) throw new Error(`not a non-negative decimal: ${text}`);
  return d;
}

export interface Dimensions {
  length: Fixed;
  width: Fixed;
  height: Fixed;
}

const DIM_PLACES = 6;

export function billableWeight(card: Pick<RateCardData, 'dimDivisor' | 'weightStepLb'>, actualLb: Fixed, dims: Dimensions) {
  const volume = times(times(dims.length, dims.width), dims.height);
  const step = card.weightStepLb;
  const steps = maxBig(ceilDivide(actualLb, step), ceilDivide(volume, times(card.dimDivisor, step)));
  const billable = new Fixed(steps * step.units, step.scale);
  // dimLb > actualLb ⇔ volume > actualLb × divisor: compared exactly, not on the rounded display value.
  const dimHeavier = compare(volume, times(actualLb, card.dimDivisor)) > 0;
  return { actualLb, dimLb: divide(volume, card.dimDivisor, DIM_PLACES, 'up'), dimHeavier, billable };
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

export function zoneIndex(zones: readonly ZoneBand[], miles: number): number {
  return zones.findIndex((z) => z.maxMiles === null || miles <= z.maxMiles);
}

export function surchargeAmount(kind: SurchargeKind, amount: Fixed, base: Fixed, billable: Fixed): Fixed {
  switch (kind) {
    case 'flat':
      return amount;
    case 'per_lb':
      return times(amount, billable);
    case 'percent':
      return shift(times(base, amount), 2);
  }
}

interface Place {
  code: string;
  point: LatLon;
}

const ROUTE_FIELDS: Record<
  LocationKind,
  {
    from: 'fromZip' | 'origin';
    to: 'toZip' | 'destination';
    paths: [string, string];
    lookup: (code: string) => LatLon | undefined;
    noun: string;
    basis: string;
  }
> = {
  zip: {
    from: 'fromZip',
    to: 'toZip',
    paths: ['from_zip', 'to_zip'],
    lookup: postalCentroid,
    noun: 'ZIP code',
    basis: 'ZIP-to-ZIP distance',
  },
  airport: {
    from: 'origin',
    to: 'destination',
    paths: ['origin', 'destination'],
    lookup: airport,
    noun: 'airport code',
    basis: 'airport-to-airport distance',
  },
};

type Route = { from?: Place; to?: Place };

function resolveRoutes(input: RateInput, errors: ErrorDetail[]): Record<LocationKind, Route> {
  const resolve = (kind: LocationKind): Route => {
    const f = ROUTE_FIELDS[kind];
    const one = (code: string | undefined, path: string): Place | undefined => {
      if (!code) return undefined;
      const point = f.lookup(code);
      if (!point) errors.push({ path, message: `unknown ${f.noun} '${code}'` });
      return point && { code, point };
    };
    return { from: one(input[f.from], f.paths[0]), to: one(input[f.to], f.paths[1]) };
  };
  return { zip: resolve('zip'), airport: resolve('airport') };
}

function missingFields(card: RateCardData, input: RateInput): ErrorDetail[] {
  const f = ROUTE_FIELDS[card.locationKind];
  return [input[f.from] ? null : f.paths[0], input[f.to] ? null : f.paths[1]]
    .filter((p): p is string => p !== null)
    .map((path) => ({ path, message: `required for ${card.service} (priced by ${f.basis})` }));
}

const ONE = new Fixed(1n, 0);

function positive(text: string, path: string, errors: ErrorDetail[]): Fixed {
  const d = parseDecimal(text.trim());
  if (!d || d.units === 0n) {
    errors.push({ path, message: `must be a number greater than 0, got '${text}'` });
    return ONE; // placeholder; the caller throws before using it
  }
  return d;
}

// Worked out once per card (cards are immutable once loaded).
interface CompiledCard {
  step: Fixed;
  dimStep: Fixed;
  maxWeight: Fixed;
  breaks: { maxLb: Fixed; prices: Fixed[] }[];
  surcharges: { kind: SurchargeKind; amount: Fixed }[];
}

const compiledCards = new WeakMap<RateCardData, CompiledCard>();

function compiled(card: RateCardData): CompiledCard {
  let c = compiledCards.get(card);
  if (!c) {
    const step = card.weightStepLb;
    c = {
      step,
      dimStep: times(card.dimDivisor, step),
      maxWeight: card.maxWeightLb,
      breaks: card.weightBreaks,
      surcharges: card.surcharges,
    };
    compiledCards.set(card, c);
  }
  return c;
}

interface Parcel {
  dims: Dimensions;
  actual: Fixed;
  volume: Fixed;
}

type Priced = { quote: RateQuote } | { details: ErrorDetail[]; summary: string };

function priceCard(card: RateCardData, input: RateInput, parcel: Parcel, route: Route): Priced {
  const f = ROUTE_FIELDS[card.locationKind];
  const c = compiled(card);
  const details: ErrorDetail[] = [];
  const summary: string[] = [];

  const missing = missingFields(card, input);
  if (missing.length > 0) {
    details.push(...missing);
    summary.push(`needs ${missing.map((m) => m.path).join(' and ')} (priced by ${f.basis})`);
  }

  const actualSteps = ceilDivide(parcel.actual, c.step);
  const dimSteps = ceilDivide(parcel.volume, c.dimStep);
  const billable = new Fixed(maxBig(actualSteps, dimSteps) * c.step.units, c.step.scale);
  // The schema makes the last break cover maxWeightLb; the second test only keeps the types honest.
  const breakIndex = c.breaks.findIndex((b) => compare(b.maxLb, billable) >= 0);
  if (compare(billable, c.maxWeight) > 0 || breakIndex < 0) {
    // Fixed's toString() writes the text these messages have always had (decimal.js's).
    const { dimHeavier, billable: over } = billableWeight(card, parcel.actual, parcel.dims);
    const why = dimHeavier ? ` (dimensional weight; actual ${round(parcel.actual, 2, 'half-up').toString()} lb)` : '';
    details.push({
      path: 'weight',
      message: `billable weight ${over.toString()} lb${why} exceeds the ${card.service} maximum of ${card.maxWeightLb.toString()} lb`,
    });
    summary.push(`billable weight ${over.toString()} lb${why} exceeds the ${card.maxWeightLb.toString()} lb maximum`);
  }

  if (details.length === 0 && route.from && route.to && breakIndex >= 0) {
    const miles = greatCircleMiles(route.from.point, route.to.point);
    const zi = zoneIndex(card.zones, miles);
    if (zi < 0) {
      const farthest = card.zones.at(-1)?.maxMiles;
      const msg = `${route.from.code} to ${route.to.code} is ${Math.round(miles)} miles, beyond the farthest zone (${farthest} mi)`;
      return { details: [{ path: f.paths[1], message: `${msg} of ${card.service}` }], summary: `Not quoted: ${msg}.` };
    }
    const base = c.breaks[breakIndex]?.prices[zi];
    const zone = card.zones[zi];
    const deliveryDays = card.deliveryDays[zi];
    if (base === undefined || zone === undefined || deliveryDays === undefined) {
      throw new Error(`Rate card ${card.service} has no price or delivery days for its zone ${zi + 1}.`);
    }
    let total = base;
    for (const s of c.surcharges) total = plus(total, surchargeAmount(s.kind, s.amount, base, billable));
    return {
      quote: {
        carrier: card.carrier,
        service: card.service,
        amount: toFixedText(total, 2),
        zone: zone.zone,
        billable_weight: toFixedText(billable, c.step.scale),
        delivery_days: deliveryDays,
      },
    };
  }
  return { details, summary: `Not quoted: ${summary.join('; ')}.` };
}

const ordered = new WeakMap<readonly RateCardData[], RateCardData[]>();

function activeInOrder(cards: readonly RateCardData[]): RateCardData[] {
  let active = ordered.get(cards);
  if (!active) {
    active = cards.filter((c) => c.active).sort((a, b) => a.sortOrder - b.sortOrder || a.service.localeCompare(b.service));
    ordered.set(cards, active);
  }
  return active;
}

export function quoteRates({ cards, input }: { cards: readonly RateCardData[]; input: RateInput }): RateResult {
  const active = activeInOrder(cards);
  const chosen = input.service ? active.find((c) => c.service === input.service) : undefined;
  if (input.service && !chosen) {
    throw validationError([{ path: 'service', message: `no active rate card for service '${input.service}'` }]);
  }
  const candidates = chosen ? [chosen] : active;
  // Every card switched off is an operator problem, not the client's: 503, not 422.
  if (candidates.length === 0) throw new AppError('service_unavailable', 'No rate cards are active.');

  const errors: ErrorDetail[] = [];
  const weight = positive(input.weight, 'weight', errors);
  const dims: Dimensions = {
    length: positive(input.length, 'length', errors),
    width: positive(input.width, 'width', errors),
    height: positive(input.height, 'height', errors),
  };
  const routes = resolveRoutes(input, errors);
  // A named service's missing inputs join the same 422 rather than surfacing one round-trip later.
  if (chosen) errors.push(...missingFields(chosen, input));
  if (errors.length > 0) throw validationError(errors);

  const parcel: Parcel = {
    dims,
    actual: toPounds(weight, input.weightUnit),
    volume: times(times(dims.length, dims.width), dims.height),
  };
  const result: RateResult = { rates: [], messages: [] };
  const reasons: ErrorDetail[] = [];
  for (const card of candidates) {
    const priced = priceCard(card, input, parcel, routes[card.locationKind]);
    if ('quote' in priced) {
      result.rates.push(priced.quote);
    } else {
      result.messages.push({ service: card.service, message: priced.summary });
      reasons.push(...priced.details);
    }
  }
  if (result.rates.length === 0) {
    throw validationError(reasons, chosen ? {} : { message: 'No active rate card can price this request; see details.' });
  }
  return result;
}
