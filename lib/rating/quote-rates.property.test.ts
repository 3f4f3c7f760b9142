// The fixed-point pricing (lib/rating/fixed.ts) against a plain decimal.js reference written from the
// rules at the top of quote-rates.ts, on random cards and parcels.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { parseRateCard } from './parse-rate-card';
import { quoteRates } from './quote-rates';
import type { Fixed } from './fixed';
import type { RateCardData, RateInput, WeightUnit } from './types';
import { defined } from '@/lib/test-support/defined';

/** A card value as the reference's own decimal.js number (from its text: nothing shared with fixed.ts). */
const D = (f: Fixed) => new Decimal(f.toString());

/** Decimal text with up to `places` decimals in (0, max]. */
const decimalText = (max: number, places: number) =>
  fc.integer({ min: 1, max: max * 10 ** places }).map((n) => new Decimal(n).dividedBy(10 ** places).toFixed());

const cardArbitrary = fc
  .record({
    dimDivisor: fc.constantFrom('100', '139', '166', '194', '250.5'),
    weightStepLb: fc.constantFrom('0.01', '0.1', '0.25', '0.5', '1', '2'),
    breakCount: fc.integer({ min: 1, max: 5 }),
    breakSizes: fc.array(decimalText(40, 2), { minLength: 5, maxLength: 5 }),
    prices: fc.array(decimalText(500, 3), { minLength: 5, maxLength: 5 }),
    surcharges: fc.array(fc.record({ kind: fc.constantFrom('flat', 'per_lb', 'percent'), amount: decimalText(30, 3) }), {
      maxLength: 4,
    }),
  })
  .map((r): RateCardData => {
    let upTo = new Decimal(0);
    const weightBreaks = r.breakSizes.slice(0, r.breakCount).map((size, i) => {
      upTo = upTo.plus(size);
      return { maxLb: upTo.toFixed(), prices: [r.prices[i]] };
    });
    return parseRateCard({
      service: 'Carrier Ground',
      locationKind: 'zip',
      dimDivisor: r.dimDivisor,
      weightStepLb: r.weightStepLb,
      maxWeightLb: upTo.toFixed(),
      zones: [{ zone: 1, maxMiles: null }],
      weightBreaks,
      surcharges: r.surcharges.map((s, i) => ({ code: `S${i}`, label: `S${i}`, ...s })),
      deliveryDays: [2],
    });
  });

const parcelArbitrary = fc.record({
  weight: decimalText(200, 3),
  weightUnit: fc.constantFrom<WeightUnit>('lb', 'kg', 'oz'),
  length: decimalText(60, 2),
  width: decimalText(60, 2),
  height: decimalText(60, 2),
});

/** The pricing rules in decimal.js, nothing shared with the code under test. */
function reference(
  card: RateCardData,
  p: { weight: string; weightUnit: WeightUnit; length: string; width: string; height: string },
) {
  const w = new Decimal(p.weight);
  const actual = p.weightUnit === 'kg' ? w.times('2.20462') : p.weightUnit === 'oz' ? w.dividedBy(16) : w;
  const dim = new Decimal(p.length).times(p.width).times(p.height).dividedBy(D(card.dimDivisor));
  const billable = Decimal.max(actual, dim).dividedBy(D(card.weightStepLb)).ceil().times(D(card.weightStepLb));
  if (billable.gt(D(card.maxWeightLb))) return null;
  const base = D(defined(card.weightBreaks.find((b) => D(b.maxLb).gte(billable))?.prices[0], 'a weight break'));
  const total = card.surcharges.reduce(
    (sum, s) =>
      sum.plus(
        s.kind === 'flat'
          ? D(s.amount)
          : s.kind === 'per_lb'
            ? D(s.amount).times(billable)
            : base.times(D(s.amount)).dividedBy(100),
      ),
    base,
  );
  return {
    amount: total.toFixed(2, Decimal.ROUND_HALF_UP),
    billable_weight: billable.toFixed(D(card.weightStepLb).decimalPlaces()),
  };
}

describe('quoteRates, fixed point', () => {
  it('prices exactly as decimal.js does, on random cards and parcels', () => {
    fc.assert(
      fc.property(cardArbitrary, parcelArbitrary, (card, parcel) => {
        const input: RateInput = { ...parcel, fromZip: '10001', toZip: '10002', service: 'Carrier Ground' };
        const expected = reference(card, parcel);
        let got: { amount: string; billable_weight: string } | null;
        try {
          const { amount, billable_weight } = defined(quoteRates({ cards: [card], input }).rates[0], 'a quote');
          got = { amount, billable_weight };
        } catch (error) {
          if (!(error instanceof AppError) || error.details[0]?.path !== 'weight') throw error;
          got = null;
        }
        expect(got).toEqual(expected);
      }),
      { numRuns: 3_000 },
    );
  });
});
