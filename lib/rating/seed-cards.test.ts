// The seeded cards (prisma/seed-data/rate-cards.ts) parsed and priced for real routes.
import { describe, it, expect } from 'vitest';
import { RATE_CARDS } from '../../prisma/seed-data/rate-cards';
import { parseRateCard } from './parse-rate-card';
import { quoteRates } from './quote-rates';
import type { RateInput } from './types';
import { defined } from '@/lib/test-support/defined';

const CARDS = RATE_CARDS.map(parseRateCard);
const card = (service: string) => CARDS.find((c) => c.service === service)!;
const PKG = { weight: '5', weightUnit: 'lb', length: '10', width: '8', height: '6' } as const;

// Real routes from New York reaching each of the 8 zones (ZIP bands ≤150 … >2400 mi;
// airport bands ≤300 … >3500 mi). Distances are great-circle miles.
const ZIP_ROUTES = ['10002', '20001', '27601', '30303', '75201', '80202', '85004', '90210'].map((toZip) => ({
  fromZip: '10001',
  toZip,
}));
const AIR_ROUTES = ['BOS', 'DTW', 'ATL', 'MSY', 'DEN', 'LAX', 'ANC', 'HNL'].map((destination) => ({
  origin: 'JFK',
  destination,
}));

const quote = (service: RateInput['service'], input: Partial<RateInput>) =>
  defined(quoteRates({ cards: CARDS, input: { ...PKG, service, ...input } }).rates[0], `a ${service} quote`);

describe('seeded rate cards', () => {
  it('all parse, one per service, all active', () => {
    expect(CARDS.map((c) => [c.service, c.locationKind, c.active])).toEqual([
      ['Carrier Ground', 'zip', true],
      ['Carrier Express', 'zip', true],
      ['AirSkip', 'airport', true],
    ]);
  });

  it('quote a real ZIP pair and airport pair (amounts worked out by hand)', () => {
    // 10001 → 90210 is ~2453 mi: zone 8. 5 lb actual beats 480 in³ ÷ 166 (or ÷ 139).
    // Ground:  13.45 + 1.61 × 4 = 19.89; + 15.5% fuel 3.08295 + 5.15 = 28.12295 → 28.12
    expect(quote('Carrier Ground', { fromZip: '10001', toZip: '90210' })).toEqual({
      carrier: 'Carrier',
      service: 'Carrier Ground',
      amount: '28.12',
      zone: 8,
      billable_weight: '5',
      delivery_days: 7,
    });
    // Express: 38.30 + 4.25 × 4 = 55.30; + 18% fuel 9.954 + 5.90 = 71.154 → 71.15
    expect(quote('Carrier Express', { fromZip: '10001', toZip: '90210' })).toEqual({
      carrier: 'Carrier',
      service: 'Carrier Express',
      amount: '71.15',
      zone: 8,
      billable_weight: '5',
      delivery_days: 3,
    });
    // JFK → LAX is ~2469 mi: zone 6. 45.25 + 3.85 × 4 = 60.65; + 19.75% fuel 11.978375
    // + handling 7.50 + screening 0.08 × 5 = 0.40 → 80.528375 → 80.53
    expect(quote('AirSkip', { origin: 'JFK', destination: 'LAX' })).toEqual({
      carrier: 'Carrier',
      service: 'AirSkip',
      amount: '80.53',
      zone: 6,
      billable_weight: '5',
      delivery_days: 2,
    });
  });

  it('quote all three in sortOrder when no service is named', () => {
    const result = quoteRates({
      cards: CARDS,
      input: { ...PKG, fromZip: '10001', toZip: '90210', origin: 'JFK', destination: 'LAX' },
    });
    expect(result.rates.map((r) => [r.service, r.amount])).toEqual([
      ['Carrier Ground', '28.12'],
      ['Carrier Express', '71.15'],
      ['AirSkip', '80.53'],
    ]);
    expect(result.messages).toEqual([]);
  });

  it('leave AirSkip out above its 100 lb cap while the road services still quote', () => {
    const result = quoteRates({
      cards: CARDS,
      input: { ...PKG, weight: '120', fromZip: '10001', toZip: '90210', origin: 'JFK', destination: 'LAX' },
    });
    expect(result.rates.map((r) => r.service)).toEqual(['Carrier Ground', 'Carrier Express']);
    expect(result.messages).toEqual([
      { service: 'AirSkip', message: 'Not quoted: billable weight 120 lb exceeds the 100 lb maximum.' },
    ]);
  });

  it('reach every zone 1–8 with the sample routes', () => {
    expect(ZIP_ROUTES.map((r) => quote('Carrier Ground', r).zone)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ZIP_ROUTES.map((r) => quote('Carrier Express', r).zone)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(AIR_ROUTES.map((r) => quote('AirSkip', r).zone)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  // Sweep 0.25 lb … max in 0.25 lb steps for each card and zone: price never drops.
  const sweeps: [RateInput['service'], Partial<RateInput>[]][] = [
    ['Carrier Ground', ZIP_ROUTES],
    ['Carrier Express', ZIP_ROUTES],
    ['AirSkip', AIR_ROUTES],
  ];
  it.each(sweeps)('%s: price is non-decreasing in weight within each zone, and in zone', (service, routes) => {
    const max = Number(card(service!).maxWeightLb.toString());
    let previousZoneAtMax = 0;
    for (const route of routes) {
      let previous = 0;
      for (let w = 0.25; w <= max; w += 0.25) {
        const amount = Number(quote(service, { ...route, weight: String(w), length: '1', width: '1', height: '1' }).amount);
        expect(amount, `${service} ${JSON.stringify(route)} ${w} lb`).toBeGreaterThanOrEqual(previous);
        previous = amount;
      }
      expect(previous).toBeGreaterThan(previousZoneAtMax);
      previousZoneAtMax = previous;
    }
  });

  it('Ground is cheaper than Express for the same package and route', () => {
    for (const route of ZIP_ROUTES) {
      for (const weight of ['0.5', '1', '3', '7.5', '10', '25', '70', '149.5']) {
        for (const [length, width, height] of [
          ['4', '4', '4'],
          ['20', '16', '12'],
          ['30', '24', '24'],
        ]) {
          const input = { ...route, weight, length, width, height };
          const ground = quote('Carrier Ground', input);
          const express = quote('Carrier Express', input);
          expect(Number(ground.amount), JSON.stringify(input)).toBeLessThan(Number(express.amount));
          expect(ground.delivery_days).toBeGreaterThanOrEqual(express.delivery_days);
        }
      }
    }
  });
});

describe('seeded versions', () => {
  it('are each service’s version 1, in force since ever (what the migration gave cards that predate versions)', () => {
    for (const c of CARDS) expect([c.version, c.effectiveFrom.toISOString()]).toEqual([1, '2000-01-01T00:00:00.000Z']);
    expect(new Set(CARDS.map((c) => c.service)).size).toBe(CARDS.length);
  });
});
