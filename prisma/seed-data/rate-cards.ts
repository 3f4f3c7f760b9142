// Seed rate cards for the three Carrier services. Plain data matching Prisma's
// RateCardCreateInput (decimals as strings), upserted by `service` by the seed script.
//
// Price tables come from a formula so the design is readable and easy to retune:
//   price(zone z, break maxLb w) = first_z + perLb_z × (w − 1)
//   first_z = first + firstPerZone × (z − 1);  perLb_z = perLb + perLbPerZone × (z − 1)
// i.e. linear in weight, steeper and dearer with distance, so every table is
// non-decreasing in weight and in zone. The output is fixed two-decimal strings.
import { fixed, plus, times, toFixedText } from '@/lib/rating/fixed';
import type { Prisma } from '@/lib/generated/prisma/client';

/** Distance bands in miles, inclusive upper bounds; the last is unbounded. */
type Zone = { zone: number; maxMiles: number | null };
type WeightBreak = { maxLb: string; prices: string[] };
type Surcharge = { code: string; label: string; kind: 'percent' | 'flat' | 'per_lb'; amount: string };

function zones(maxMiles: (number | null)[]): Zone[] {
  return maxMiles.map((m, i) => ({ zone: i + 1, maxMiles: m }));
}

const BREAKS_LB = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 120, 150];

function priceTable(opts: {
  zoneCount: number;
  maxLb: number;
  first: string;
  firstPerZone: string;
  perLb: string;
  perLbPerZone: string;
}): WeightBreak[] {
  return BREAKS_LB.filter((w) => w <= opts.maxLb).map((w) => ({
    maxLb: String(w),
    prices: Array.from({ length: opts.zoneCount }, (_, i) => {
      const first = plus(fixed(opts.first), times(fixed(opts.firstPerZone), fixed(String(i))));
      const perLb = plus(fixed(opts.perLb), times(fixed(opts.perLbPerZone), fixed(String(i))));
      return toFixedText(plus(first, times(perLb, fixed(String(w - 1)))), 2);
    }),
  }));
}

// Road networks zone by ZIP-centroid distance (bands like the big US parcel carriers').
const ROAD_ZONES = zones([150, 300, 600, 1000, 1400, 1800, 2400, null]);
// AirSkip is airport-to-airport, so short hops aren't worth flying: wider bands.
const AIR_ZONES = zones([300, 600, 1000, 1500, 2000, 2500, 3500, null]);

const fuel = (percent: string): Surcharge => ({ code: 'fuel', label: 'Fuel surcharge', kind: 'percent', amount: percent });

export const RATE_CARDS = [
  {
    // Economy: cheapest, 1–7 days. Divisor 166 (the lenient retail divisor) keeps light,
    // bulky parcels affordable on the budget service; the faster services use 139.
    service: 'Carrier Ground',
    carrier: 'Carrier',
    active: true,
    locationKind: 'zip',
    dimDivisor: '166',
    weightStepLb: '1',
    maxWeightLb: '150',
    zones: ROAD_ZONES,
    weightBreaks: priceTable({
      zoneCount: 8,
      maxLb: 150,
      first: '9.25',
      firstPerZone: '0.60',
      perLb: '0.42',
      perLbPerZone: '0.17',
    }),
    surcharges: [fuel('15.5'), { code: 'residential', label: 'Residential delivery', kind: 'flat', amount: '5.15' }],
    deliveryDays: [1, 2, 3, 3, 4, 5, 6, 7],
    sortOrder: 1,
  },
  {
    // Time-definite road/air mix: 1–3 days, roughly 2–3× Ground.
    service: 'Carrier Express',
    carrier: 'Carrier',
    active: true,
    locationKind: 'zip',
    dimDivisor: '139',
    weightStepLb: '1',
    maxWeightLb: '150',
    zones: ROAD_ZONES,
    weightBreaks: priceTable({
      zoneCount: 8,
      maxLb: 150,
      first: '21.50',
      firstPerZone: '2.40',
      perLb: '1.10',
      perLbPerZone: '0.45',
    }),
    surcharges: [fuel('18'), { code: 'residential', label: 'Residential delivery', kind: 'flat', amount: '5.90' }],
    deliveryDays: [1, 1, 2, 2, 2, 3, 3, 3],
    sortOrder: 2,
  },
  {
    // Airport-to-airport counter service: next day within 2,000 mi, else 2 days.
    // Capped at 100 lb (hand-carried to the counter); screening is charged per pound.
    service: 'AirSkip',
    carrier: 'Carrier',
    active: true,
    locationKind: 'airport',
    dimDivisor: '139',
    weightStepLb: '1',
    maxWeightLb: '100',
    zones: AIR_ZONES,
    weightBreaks: priceTable({
      zoneCount: 8,
      maxLb: 100,
      first: '29.00',
      firstPerZone: '3.25',
      perLb: '1.35',
      perLbPerZone: '0.50',
    }),
    surcharges: [
      fuel('19.75'),
      { code: 'airport_handling', label: 'Airport handling', kind: 'flat', amount: '7.50' },
      { code: 'security', label: 'Security screening', kind: 'per_lb', amount: '0.08' },
    ],
    deliveryDays: [1, 1, 1, 1, 1, 2, 2, 2],
    sortOrder: 3,
  },
] satisfies Prisma.RateCardCreateInput[];
