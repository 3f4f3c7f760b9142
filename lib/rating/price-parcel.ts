// One package priced on one card, itemised, with quoteRates' arithmetic so a quote and its package agree to the cent.
// A lane or weight the card cannot price is an answer (unpriced), never an error: acceptance never refuses over price.
import { compare, Fixed, plus, round, times, toFixedText, ceilDivide } from './fixed';
import { airport, greatCircleMiles, postalCentroid, type LatLon } from './locations';
import { surchargeAmount, zoneIndex } from './quote-rates';
import type { RateCardData } from './types';

export interface Parcel {
  /** Actual weight in pounds, exact. */
  weightLb: Fixed;
  length: Fixed;
  width: Fixed;
  height: Fixed;
  /** ZIP or postal codes for a zip card, IATA codes for an airport card. */
  from?: string;
  to?: string;
}

export interface ParcelPrice {
  amount: string;
  base: string;
  zone: number;
  billableWeight: string;
  surcharges: { code: string; label: string; amount: string }[];
}

export type PriceOutcome = { price: ParcelPrice } | { unpriced: string };

const LANE = {
  zip: { lookup: postalCentroid, noun: 'postal code', fields: 'origin and destination postal codes' },
  airport: { lookup: airport, noun: 'airport code', fields: 'origin and destination airports' },
} as const;

export function priceParcel(card: RateCardData, parcel: Parcel): PriceOutcome {
  const lane = LANE[card.locationKind];
  if (!parcel.from || !parcel.to) return { unpriced: `${card.service} is priced by ${lane.fields}; the package names none` };
  const place = (code: string): LatLon | undefined => lane.lookup(code);
  const from = place(parcel.from);
  const to = place(parcel.to);
  if (!from) return { unpriced: `unknown ${lane.noun} '${parcel.from}'` };
  if (!to) return { unpriced: `unknown ${lane.noun} '${parcel.to}'` };
  if (parcel.weightLb.units <= 0n) return { unpriced: 'the package has no weight' };
  const step = card.weightStepLb;
  const volume = times(times(parcel.length, parcel.width), parcel.height);
  const steps = maxBig(ceilDivide(parcel.weightLb, step), ceilDivide(volume, times(card.dimDivisor, step)));
  const billable = new Fixed(steps * step.units, step.scale);
  const breakIndex = card.weightBreaks.findIndex((b) => compare(b.maxLb, billable) >= 0);
  if (compare(billable, card.maxWeightLb) > 0 || breakIndex < 0) {
    return {
      unpriced: `billable weight ${billable.toString()} lb exceeds the ${card.service} maximum of ${card.maxWeightLb.toString()} lb`,
    };
  }
  const miles = greatCircleMiles(from, to);
  const zi = zoneIndex(card.zones, miles);
  const zone = card.zones[zi];
  const base = card.weightBreaks[breakIndex]?.prices[zi];
  if (zi < 0 || !zone || base === undefined) {
    return { unpriced: `${parcel.from} to ${parcel.to} is ${Math.round(miles)} miles, beyond the farthest ${card.service} zone` };
  }
  let total = base;
  const surcharges = card.surcharges.map((s) => {
    const amount = surchargeAmount(s.kind, s.amount, base, billable);
    total = plus(total, amount);
    return { code: s.code, label: s.label, amount: toFixedText(round(amount, 2, 'half-up'), 2) };
  });
  return {
    price: {
      amount: toFixedText(total, 2),
      base: toFixedText(base, 2),
      zone: zone.zone,
      billableWeight: toFixedText(billable, step.scale),
      surcharges,
    },
  };
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
