import { describe, it, expect } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { fixed } from './fixed';
import { greatCircleMiles, zipCentroid } from './locations';
import { parseRateCard } from './parse-rate-card';
import { billableWeight, quoteRates, toPounds, zoneIndex } from './quote-rates';
import type { RateCardData, RateInput } from './types';
import { defined } from '@/lib/test-support/defined';

// A small hand-made card, so every expected amount below can be worked out on paper.
//   zones: 1 ≤ 100 mi, 2 ≤ 1000 mi, 3 beyond; dim divisor 100; step 1 lb; max 10 lb.
const GROUND = parseRateCard({
  service: 'Carrier Ground',
  locationKind: 'zip',
  dimDivisor: '100',
  weightStepLb: '1',
  maxWeightLb: '10',
  zones: [
    { zone: 1, maxMiles: 100 },
    { zone: 2, maxMiles: 1000 },
    { zone: 3, maxMiles: null },
  ],
  weightBreaks: [
    { maxLb: '1', prices: ['5.00', '6.00', '7.00'] },
    { maxLb: '2', prices: ['6.50', '7.50', '9.00'] },
    { maxLb: '5', prices: ['9.00', '11.00', '14.00'] },
    { maxLb: '10', prices: ['15.00', '19.00', '25.00'] },
  ],
  surcharges: [],
  deliveryDays: [1, 3, 5],
  sortOrder: 1,
});

// Airport card: 1 ≤ 1000 mi, 2 ≤ 3000 mi, nothing beyond (bounded on purpose).
const AIR = parseRateCard({
  service: 'AirSkip',
  locationKind: 'airport',
  dimDivisor: '100',
  weightStepLb: '1',
  maxWeightLb: '50',
  zones: [
    { zone: 1, maxMiles: 1000 },
    { zone: 2, maxMiles: 3000 },
  ],
  weightBreaks: [{ maxLb: '50', prices: ['40.00', '60.00'] }],
  surcharges: [],
  deliveryDays: [1, 2],
  sortOrder: 2,
});

// 10001 → 10002: ~2 mi (zone 1); → 60601 Chicago: ~711 mi (zone 2); → 90210: ~2453 mi (zone 3).
const NEAR = { fromZip: '10001', toZip: '10002' };
const BASE: RateInput = { weight: '3', weightUnit: 'lb', length: '1', width: '1', height: '1', ...NEAR };

const quoteOne = (card: RateCardData, input: Partial<RateInput>) =>
  defined(quoteRates({ cards: [card], input: { ...BASE, service: card.service, ...input } }).rates[0], 'a quote');

/** Runs fn, expects a validation_failed AppError (422) and returns its details. */
function details422(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('validation_failed');
    return (e as AppError).details;
  }
  throw new Error('expected a 422');
}

describe('toPounds (exact)', () => {
  it('converts each unit', () => {
    expect(toPounds('2.5', 'lb').toString()).toBe('2.5');
    expect(toPounds('1', 'kg').toString()).toBe('2.20462');
    expect(toPounds('2.5', 'kg').toString()).toBe('5.51155');
    expect(toPounds('16', 'oz').toString()).toBe('1');
    expect(toPounds('1', 'oz').toString()).toBe('0.0625');
    expect(toPounds('0.1', 'oz').toString()).toBe('0.00625');
  });

  it('feeds exact pounds into the break lookup (edges of the 2 lb break)', () => {
    // 0.9 kg = 1.984158 lb → 2 lb; 0.91 kg = 2.0062042 lb → 3 lb.
    expect(quoteOne(GROUND, { weight: '0.9', weightUnit: 'kg' })).toMatchObject({ billable_weight: '2', amount: '6.50' });
    expect(quoteOne(GROUND, { weight: '0.91', weightUnit: 'kg' })).toMatchObject({ billable_weight: '3', amount: '9.00' });
    // 32 oz = exactly 2 lb; 32.01 oz is over.
    expect(quoteOne(GROUND, { weight: '32', weightUnit: 'oz' })).toMatchObject({ billable_weight: '2', amount: '6.50' });
    expect(quoteOne(GROUND, { weight: '32.01', weightUnit: 'oz' })).toMatchObject({ billable_weight: '3', amount: '9.00' });
  });
});

describe('billable weight', () => {
  const dims = (l: string, w: string, h: string) => ({ length: fixed(l), width: fixed(w), height: fixed(h) });

  it('uses dimensional weight when it is heavier', () => {
    // 12 × 10 × 8 = 960 in³ ÷ 100 = 9.6 lb > 1 lb actual → 10 lb.
    expect(billableWeight(GROUND, fixed('1'), dims('12', '10', '8')).billable.toString()).toBe('10');
    expect(quoteOne(GROUND, { weight: '1', length: '12', width: '10', height: '8' })).toMatchObject({
      billable_weight: '10',
      amount: '15.00',
    });
  });

  it('uses actual weight when it is heavier', () => {
    // 10 × 10 × 1 = 100 in³ ÷ 100 = 1 lb < 1.5 lb actual → 2 lb.
    expect(quoteOne(GROUND, { weight: '1.5', length: '10', width: '10', height: '1' })).toMatchObject({
      billable_weight: '2',
      amount: '6.50',
    });
  });

  it('rounds up to the step, but not past an exact multiple', () => {
    expect(quoteOne(GROUND, { weight: '3', length: '10', width: '10', height: '3' }).billable_weight).toBe('3'); // dim exactly 3
    expect(quoteOne(GROUND, { weight: '3.001' }).billable_weight).toBe('4');
    expect(quoteOne(GROUND, { weight: '0.01' }).billable_weight).toBe('1');
  });

  it('rounds to a fractional step and writes it with the step precision', () => {
    const halfLb = { ...GROUND, weightStepLb: fixed('0.5') };
    expect(quoteOne(halfLb, { weight: '2.01' })).toMatchObject({ billable_weight: '2.5', amount: '9.00' });
    expect(quoteOne(halfLb, { weight: '2' })).toMatchObject({ billable_weight: '2.0', amount: '6.50' });
    expect(quoteOne(halfLb, { weight: '1.2' })).toMatchObject({ billable_weight: '1.5', amount: '6.50' });
  });
});

describe('zones', () => {
  it('picks the first band whose maxMiles ≥ distance', () => {
    const zones = GROUND.zones;
    expect(zoneIndex(zones, 0)).toBe(0);
    expect(zoneIndex(zones, 100)).toBe(0); // exactly at the limit: still this band
    expect(zoneIndex(zones, 100.0001)).toBe(1); // just past
    expect(zoneIndex(zones, 1000)).toBe(1);
    expect(zoneIndex(zones, 1000.5)).toBe(2);
    expect(zoneIndex(zones, 1e6)).toBe(2); // unbounded last band
    expect(zoneIndex(AIR.zones, 3000.01)).toBe(-1); // beyond a bounded card
  });

  it('zones a real ZIP pair at the band edge, through quoteRates', () => {
    const miles = greatCircleMiles(zipCentroid('10001')!, zipCentroid('60601')!);
    const withEdge = (edge: number) => ({
      ...GROUND,
      zones: [
        { zone: 1, maxMiles: edge },
        { zone: 2, maxMiles: null },
      ],
    });
    const chicago = { fromZip: '10001', toZip: '60601' };
    expect(quoteOne(withEdge(miles), chicago)).toMatchObject({ zone: 1, amount: '9.00', delivery_days: 1 });
    expect(quoteOne(withEdge(miles - 1e-9), chicago)).toMatchObject({ zone: 2, amount: '11.00', delivery_days: 3 });
  });

  it("zones the contract's Canadian sender (M5X 1A9, Toronto) by its FSA's centroid", () => {
    expect(quoteOne(GROUND, { fromZip: 'M5X 1A9', toZip: '14201' })).toMatchObject({ zone: 1, amount: '9.00' }); // Buffalo
    expect(quoteOne(GROUND, { fromZip: 'M5X 1A9', toZip: '10001' })).toMatchObject({ zone: 2, amount: '11.00' });
    expect(quoteOne(GROUND, { fromZip: 'M5X 1A9', toZip: '90210' })).toMatchObject({ zone: 3, amount: '14.00' });
  });

  it('names a Canadian postal code whose FSA the dataset lacks', () => {
    expect(details422(() => quoteRates({ cards: [GROUND], input: { ...BASE, fromZip: 'X0Y 1A1' } }))).toEqual([
      { path: 'from_zip', message: "unknown ZIP code 'X0Y 1A1'" },
    ]);
  });

  it('prices each zone from its own column with its own transit days', () => {
    expect(quoteOne(GROUND, NEAR)).toMatchObject({ zone: 1, amount: '9.00', delivery_days: 1 });
    expect(quoteOne(GROUND, { toZip: '60601' })).toMatchObject({ zone: 2, amount: '11.00', delivery_days: 3 });
    expect(quoteOne(GROUND, { toZip: '90210-1234' })).toMatchObject({ zone: 3, amount: '14.00', delivery_days: 5 });
  });
});

describe('surcharges and rounding', () => {
  it('adds flat, per-lb and percent-of-base, then rounds half-up to cents', () => {
    // base 9.00 (3 lb, zone 1); fuel 12.5% of base = 1.125; handling 2.00; 0.10/lb × 3 = 0.30
    // total 12.425 → 12.43 half-up (half-even or truncation would give 12.42).
    // Had percent applied to base + other surcharges: 11.30 × 1.125 = 12.7125 → 12.71.
    const card = {
      ...GROUND,
      surcharges: [
        { code: 'handling', label: 'Handling', kind: 'flat' as const, amount: fixed('2.00') },
        { code: 'fuel', label: 'Fuel', kind: 'percent' as const, amount: fixed('12.5') },
        { code: 'screening', label: 'Screening', kind: 'per_lb' as const, amount: fixed('0.10') },
      ],
    };
    expect(quoteOne(card, {})).toEqual({
      carrier: 'Carrier',
      service: 'Carrier Ground',
      amount: '12.43',
      zone: 1,
      billable_weight: '3',
      delivery_days: 1,
    });
  });

  it('rounds x.xx5 up and x.xx4999… down', () => {
    const pct = (p: string) => ({
      ...GROUND,
      surcharges: [{ code: 'fuel', label: 'Fuel', kind: 'percent' as const, amount: fixed(p) }],
    });
    expect(quoteOne(pct('0.5'), {}).amount).toBe('9.05'); // 9 + 0.045 = 9.045
    expect(quoteOne(pct('0.4999'), {}).amount).toBe('9.04'); // 9 + 0.044991
    expect(quoteOne(pct('0'), {}).amount).toBe('9.00'); // always two decimals
  });
});

describe('service selection', () => {
  const both = { ...NEAR, origin: 'JFK', destination: 'BOS' };

  it('quotes every active card in sortOrder when no service is named', () => {
    const later = { ...GROUND, sortOrder: 9 };
    const result = quoteRates({ cards: [later, AIR], input: { ...BASE, ...both } });
    expect(result.rates.map((r) => r.service)).toEqual(['AirSkip', 'Carrier Ground']);
    expect(result.messages).toEqual([]);
  });

  it('quotes only the named service', () => {
    const result = quoteRates({ cards: [GROUND, AIR], input: { ...BASE, ...both, service: 'AirSkip' } });
    expect(result.rates).toEqual([
      { carrier: 'Carrier', service: 'AirSkip', amount: '40.00', zone: 1, billable_weight: '3', delivery_days: 1 },
    ]);
  });

  it('ignores inactive cards; naming one is a 422 on service', () => {
    const off = { ...AIR, active: false };
    expect(quoteRates({ cards: [GROUND, off], input: { ...BASE, ...both } }).rates.map((r) => r.service)).toEqual([
      'Carrier Ground',
    ]);
    expect(details422(() => quoteRates({ cards: [GROUND, off], input: { ...BASE, ...both, service: 'AirSkip' } }))).toEqual([
      { path: 'service', message: "no active rate card for service 'AirSkip'" },
    ]);
  });

  it('answers 503 when no card is active at all', () => {
    expect(() => quoteRates({ cards: [{ ...GROUND, active: false }], input: BASE })).toThrow(
      expect.objectContaining({ code: 'service_unavailable' }),
    );
  });
});

describe('missing inputs', () => {
  it('leaves out a card lacking its inputs, with a message, when no service is named', () => {
    const result = quoteRates({ cards: [GROUND, AIR], input: BASE });
    expect(result.rates.map((r) => r.service)).toEqual(['Carrier Ground']);
    expect(result.messages).toEqual([
      { service: 'AirSkip', message: 'Not quoted: needs origin and destination (priced by airport-to-airport distance).' },
    ]);
  });

  it('is a 422 naming the fields when that service is named', () => {
    expect(details422(() => quoteRates({ cards: [GROUND, AIR], input: { ...BASE, service: 'AirSkip' } }))).toEqual([
      { path: 'origin', message: 'required for AirSkip (priced by airport-to-airport distance)' },
      { path: 'destination', message: 'required for AirSkip (priced by airport-to-airport distance)' },
    ]);
    const noTo = { ...BASE, toZip: undefined };
    expect(details422(() => quoteRates({ cards: [GROUND], input: { ...noTo, service: 'Carrier Ground' } }))).toEqual([
      { path: 'to_zip', message: 'required for Carrier Ground (priced by ZIP-to-ZIP distance)' },
    ]);
  });

  it('is a 422 listing every card’s reasons when no card can price it', () => {
    const none = { ...BASE, fromZip: undefined, toZip: undefined };
    const d = details422(() => quoteRates({ cards: [GROUND, AIR], input: none }));
    expect(d.map((x) => x.path)).toEqual(['from_zip', 'to_zip', 'origin', 'destination']);
  });
});

describe('unknown locations (always 422 when given)', () => {
  it('names an unknown ZIP, including ZIP+4', () => {
    expect(details422(() => quoteRates({ cards: [GROUND], input: { ...BASE, toZip: '00000-1234' } }))).toEqual([
      { path: 'to_zip', message: "unknown ZIP code '00000-1234'" },
    ]);
  });

  it('names an unknown airport code', () => {
    expect(details422(() => quoteRates({ cards: [AIR], input: { ...BASE, origin: 'QQQ', destination: 'LAX' } }))).toEqual([
      { path: 'origin', message: "unknown airport code 'QQQ'" },
    ]);
  });

  it('is a 422 even when no card being quoted uses the field', () => {
    // service blank, airports fine, a ZIP unknown: not a silent AirSkip-only answer.
    const d = details422(() =>
      quoteRates({ cards: [GROUND, AIR], input: { ...BASE, fromZip: '00000', origin: 'JFK', destination: 'ZZZ' } }),
    );
    expect(d).toEqual([
      { path: 'from_zip', message: "unknown ZIP code '00000'" },
      { path: 'destination', message: "unknown airport code 'ZZZ'" },
    ]);
    // …and with AirSkip named.
    expect(
      details422(() =>
        quoteRates({
          cards: [GROUND, AIR],
          input: { ...BASE, toZip: '00000', origin: 'JFK', destination: 'BOS', service: 'AirSkip' },
        }),
      ),
    ).toEqual([{ path: 'to_zip', message: "unknown ZIP code '00000'" }]);
  });

  it('reports unknown codes together with a named service’s missing inputs', () => {
    const d = details422(() => quoteRates({ cards: [AIR], input: { ...BASE, origin: 'QQQ', service: 'AirSkip' } }));
    expect(d.map((x) => x.path)).toEqual(['origin', 'destination']);
  });
});

describe('limits', () => {
  it('over the maximum weight: 422 on weight when the service is named', () => {
    expect(details422(() => quoteOne(GROUND, { weight: '10.01' }))).toEqual([
      { path: 'weight', message: 'billable weight 11 lb exceeds the Carrier Ground maximum of 10 lb' },
    ]);
    expect(quoteOne(GROUND, { weight: '10' }).amount).toBe('15.00'); // exactly at the max is fine
  });

  it('says when the dimensional weight is what is over', () => {
    const d = details422(() => quoteOne(GROUND, { weight: '2', length: '20', width: '10', height: '10' }));
    expect(d).toEqual([
      {
        path: 'weight',
        message: 'billable weight 20 lb (dimensional weight; actual 2 lb) exceeds the Carrier Ground maximum of 10 lb',
      },
    ]);
  });

  it('over the maximum with no service named: that card is left out with a message', () => {
    const result = quoteRates({ cards: [GROUND, AIR], input: { ...BASE, weight: '12', origin: 'JFK', destination: 'BOS' } });
    expect(result.rates.map((r) => r.service)).toEqual(['AirSkip']);
    expect(result.messages).toEqual([
      { service: 'Carrier Ground', message: 'Not quoted: billable weight 12 lb exceeds the 10 lb maximum.' },
    ]);
  });

  it('beyond a bounded card’s farthest zone', () => {
    const far = { ...BASE, origin: 'JFK', destination: 'HNL' };
    expect(details422(() => quoteRates({ cards: [AIR], input: { ...far, service: 'AirSkip' } }))).toEqual([
      { path: 'destination', message: 'JFK to HNL is 4975 miles, beyond the farthest zone (3000 mi) of AirSkip' },
    ]);
    const result = quoteRates({ cards: [GROUND, AIR], input: far });
    expect(result.messages).toEqual([
      { service: 'AirSkip', message: 'Not quoted: JFK to HNL is 4975 miles, beyond the farthest zone (3000 mi).' },
    ]);
  });

  it('rejects non-positive or non-numeric weight and dimensions, all at once', () => {
    expect(details422(() => quoteOne(GROUND, { weight: '0', length: 'abc', height: '-1' })).map((d) => d.path)).toEqual([
      'weight',
      'length',
      'height',
    ]);
  });
});
