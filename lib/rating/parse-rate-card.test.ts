import Decimal from 'decimal.js';
import { describe, it, expect } from 'vitest';
import { Fixed } from './fixed';
import { parseRateCard } from './parse-rate-card';
import type { RateCardRow } from './types';

const ROW: RateCardRow = {
  id: '6b0c1c1e-0000-4000-8000-000000000001',
  service: 'Carrier Ground',
  carrier: 'Carrier',
  active: true,
  locationKind: 'zip',
  dimDivisor: '139',
  weightStepLb: '0.5',
  maxWeightLb: '10',
  zones: [
    { zone: 1, maxMiles: 100 },
    { zone: 2, maxMiles: null },
  ],
  weightBreaks: [
    { maxLb: '1', prices: ['5.00', '6.00'] },
    { maxLb: '10', prices: ['9.00', '11.00'] },
  ],
  surcharges: [{ code: 'fuel', label: 'Fuel surcharge', kind: 'percent', amount: '12.5' }],
  deliveryDays: [1, 2],
  sortOrder: 3,
};

describe('parseRateCard', () => {
  it('turns decimal text into Fixed and keeps the rest', () => {
    const card = parseRateCard(ROW);
    expect(card.dimDivisor).toBeInstanceOf(Fixed);
    expect(card.dimDivisor.toString()).toBe('139');
    expect(card.weightStepLb.toString()).toBe('0.5');
    expect(card.weightBreaks[1]?.prices.map(String)).toEqual(['9', '11']);
    expect(card.surcharges[0]?.amount.toString()).toBe('12.5');
    expect(card.zones).toEqual(ROW.zones);
    expect(card).toMatchObject({
      id: ROW.id,
      service: 'Carrier Ground',
      carrier: 'Carrier',
      active: true,
      sortOrder: 3,
      deliveryDays: [1, 2],
    });
  });

  it('accepts Prisma-style Decimal objects (anything with a decimal toString())', () => {
    const prismaLike = { toString: () => '139.00' };
    const card = parseRateCard({ ...ROW, dimDivisor: prismaLike, maxWeightLb: new Decimal('10.00') });
    expect(card.dimDivisor.toString()).toBe('139');
    expect(card.maxWeightLb.toString()).toBe('10');
  });

  it('applies the Prisma defaults to a seed create-input', () => {
    const seedLike = { ...ROW, carrier: undefined, active: undefined, sortOrder: undefined };
    expect(parseRateCard(seedLike)).toMatchObject({ carrier: 'Carrier', active: true, sortOrder: 0 });
  });

  const broken: [string, Partial<RateCardRow>, RegExp][] = [
    ['a non-decimal dim divisor', { dimDivisor: 'abc' }, /dimDivisor/],
    ['a zero weight step', { weightStepLb: '0' }, /weightStepLb/],
    ['a plain object as a decimal', { maxWeightLb: {} }, /maxWeightLb/],
    ['a price row one zone short', { weightBreaks: [{ maxLb: '10', prices: ['9.00'] }] }, /expected 2 prices/],
    [
      'weight breaks out of order',
      {
        weightBreaks: [
          { maxLb: '10', prices: ['1', '2'] },
          { maxLb: '5', prices: ['1', '2'] },
        ],
      },
      /ascending order of maxLb/,
    ],
    [
      'zones out of order',
      {
        zones: [
          { zone: 1, maxMiles: 500 },
          { zone: 2, maxMiles: 100 },
        ],
      },
      /ascending order of maxMiles/,
    ],
    [
      'an unbounded zone before the last',
      {
        zones: [
          { zone: 1, maxMiles: null },
          { zone: 2, maxMiles: 100 },
        ],
      },
      /only the last zone/,
    ],
    ['delivery days one short', { deliveryDays: [1] }, /one per zone/],
    ['weight breaks not covering maxWeightLb', { maxWeightLb: '20' }, /must cover maxWeightLb/],
    ['an unknown surcharge kind', { surcharges: [{ code: 'x', label: 'X', kind: 'percentage', amount: '1' }] }, /surcharges/],
    ['an unknown location kind', { locationKind: 'postcode' }, /locationKind/],
    ['zones not JSON array', { zones: 'nope' }, /zones/],
  ];
  it.each(broken)('fails loudly on %s', (_name, patch, pattern) => {
    expect(() => parseRateCard({ ...ROW, ...patch })).toThrow(pattern);
    expect(() => parseRateCard({ ...ROW, ...patch })).toThrow(/Rate card "Carrier Ground" \(6b0c1c1e-.*\) is malformed/);
  });
});
