import { describe, expect, it } from 'vitest';
import { RATE_CARDS } from '../../prisma/seed-data/rate-cards';
import { parseRateCard } from '@/lib/rating/parse-rate-card';
import { quoteRates } from '@/lib/rating/quote-rates';
import { cardInForce, cardsInForce } from '@/lib/rating/card-versions';
import type { RateCardData } from '@/lib/rating/types';
import { issueQuotes } from './quote';
import { quoteKeyFrom } from './quote-id';
import { laneCode, pricePackage, type PackageToPrice, type PricingContext } from './pricing';

const V1 = RATE_CARDS.map(parseRateCard);
const express = (cards: readonly RateCardData[]) => cards.find((c) => c.service === 'Carrier Express')!;
// Version 2 of Carrier Express: every price doubled, in force from 2026-12-01.
const EXPRESS_V2: RateCardData = {
  ...express(V1),
  version: 2,
  effectiveFrom: new Date('2026-12-01T00:00:00Z'),
  weightBreaks: express(V1).weightBreaks.map((b) => ({
    ...b,
    prices: b.prices.map((p) => ({ ...p, units: p.units * 2n }) as typeof p),
  })),
};
const CARDS = [...V1, EXPRESS_V2];
const KEY = quoteKeyFrom(Buffer.alloc(32, 3));
const NOW = new Date('2026-11-29T10:00:00Z');
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const CTX: PricingContext = { cards: CARDS, keys: [KEY], accountId: ACCOUNT, environment: 'test', now: NOW };
const PKG: PackageToPrice = {
  service: 'Carrier Express',
  manifestDate: new Date('2026-11-30T12:00:00Z'),
  weight: '3',
  weightUnit: 'lb',
  length: '10',
  width: '8',
  height: '6',
  fromPostal: '10001',
  toPostal: '90210',
};
const INPUT = {
  weight: '3',
  weightUnit: 'lb',
  length: '10',
  width: '8',
  height: '6',
  fromZip: '10001',
  toZip: '90210',
  service: 'Carrier Express',
} as const;

function quote(now = NOW, input: typeof INPUT | Record<string, string> = INPUT) {
  const inForce = cardsInForce(CARDS, now);
  const result = quoteRates({ cards: inForce, input: input as typeof INPUT });
  return issueQuotes({
    rates: result.rates,
    cards: inForce,
    input: input as typeof INPUT,
    key: KEY,
    accountId: ACCOUNT,
    environment: 'test',
    now,
  })[0]!;
}

describe('card versions', () => {
  it('take per service the greatest effective_from at or before the instant', () => {
    expect(cardInForce(CARDS, 'Carrier Express', new Date('2026-11-30T23:59:59Z'))?.version).toBe(1);
    expect(cardInForce(CARDS, 'Carrier Express', new Date('2026-12-01T00:00:00Z'))?.version).toBe(2);
    expect(cardInForce(CARDS, 'Carrier Express', new Date('1999-01-01T00:00:00Z'))).toBeUndefined();
    expect(
      cardInForce(
        CARDS.map((c) => (c.version === 2 ? { ...c, active: false } : c)),
        'Carrier Express',
        new Date('2027-01-01'),
      )?.version,
    ).toBe(1);
  });

  it('give one card per service, remembered until the next version comes into force', () => {
    const before = cardsInForce(CARDS, NOW);
    expect(before.map((c) => `${c.service} v${c.version}`).sort()).toEqual([
      'AirSkip v1',
      'Carrier Express v1',
      'Carrier Ground v1',
    ]);
    expect(cardsInForce(CARDS, new Date(NOW.getTime() + 1000))).toBe(before);
    expect(express(cardsInForce(CARDS, new Date('2026-12-02'))).version).toBe(2);
  });
});

describe('pricePackage', () => {
  it('prices at the card version in force on the ManifestDate, itemised, agreeing with the quote to the cent', () => {
    const { charge, quoteProblem } = pricePackage(CTX, PKG);
    expect(quoteProblem).toBeUndefined();
    expect(charge).toMatchObject({
      status: 'priced',
      currency: 'USD',
      service: 'Carrier Express',
      card_version: 1,
      quote_id: null,
      reason: null,
    });
    expect(charge.amount).toBe(quote().amount);
    const december = pricePackage(CTX, { ...PKG, manifestDate: new Date('2026-12-01T00:00:00Z') }).charge;
    expect(december.card_version).toBe(2);
    expect(december.base).not.toBe(charge.base);
  });

  it('prices at a quote that still matches, even once a new card version is in force', () => {
    const q = quote();
    const { charge, quoteProblem } = pricePackage(CTX, { ...PKG, manifestDate: new Date('2026-12-05'), quoteId: q.quote_id });
    expect(quoteProblem).toBeUndefined();
    expect(charge).toMatchObject({ status: 'priced', amount: q.amount, card_version: 1, quote_id: q.quote_id });
  });

  it('matches a quote whatever unit or ZIP+4 spelling: 48 oz is 3 lb, 10001-1234 is 10001', () => {
    const q = quote(NOW, { ...INPUT, weight: '48', weightUnit: 'oz', fromZip: '10001-1234' });
    expect(laneCode('10001-1234')).toBe('10001');
    expect(pricePackage(CTX, { ...PKG, quoteId: q.quote_id }).charge.quote_id).toBe(q.quote_id);
  });

  it.each([
    ['weight', { weight: '4' }, /was for 3 lb, the package weighs 4 lb/],
    ['dimensions', { height: '7' }, /was for 10×8×6 in/],
    ['lane', { toPostal: '60601' }, /was for 10001→90210/],
    ['service', { service: 'Carrier Ground' }, /was for Carrier Express, the package ships Carrier Ground/],
  ])('prices afresh with a warning when the %s differs', (_name, change, why) => {
    const q = quote();
    const { charge, quoteProblem } = pricePackage(CTX, { ...PKG, ...change, quoteId: q.quote_id });
    expect(charge.quote_id).toBeNull();
    expect(quoteProblem).toMatch(why);
  });

  it('names why a quote id does not hold: expired, another account, the other environment, forged, garbage', () => {
    const q = quote();
    const later = { ...CTX, now: new Date(NOW.getTime() + 25 * 3_600_000) };
    expect(pricePackage(later, { ...PKG, quoteId: q.quote_id }).quoteProblem).toMatch(/expired/);
    expect(
      pricePackage({ ...CTX, accountId: '22222222-2222-4222-8222-222222222222' }, { ...PKG, quoteId: q.quote_id }).quoteProblem,
    ).toMatch(/another account/);
    expect(pricePackage({ ...CTX, environment: 'live' }, { ...PKG, quoteId: q.quote_id }).quoteProblem).toMatch(
      /other environment/,
    );
    expect(pricePackage(CTX, { ...PKG, quoteId: `${q.quote_id.slice(0, -2)}AA` }).quoteProblem).toMatch(/does not verify/);
    expect(pricePackage(CTX, { ...PKG, quoteId: 'qt_nonsense' }).quoteProblem).toMatch(/not a quote id/);
    // Each still prices the package afresh.
    expect(pricePackage(CTX, { ...PKG, quoteId: 'qt_nonsense' }).charge.status).toBe('priced');
  });

  it('marks unpriced with the reason: unknown service, AirSkip without airports, no weight', () => {
    expect(pricePackage(CTX, { ...PKG, service: 'Pigeon' }).charge).toMatchObject({
      status: 'unpriced',
      reason: "no rate card for service 'Pigeon'",
    });
    expect(pricePackage(CTX, { ...PKG, service: 'AirSkip' }).charge.reason).toMatch(/airports/);
    expect(pricePackage(CTX, { ...PKG, service: 'airskip', originAirport: 'JFK', destinationAirport: 'LAX' }).charge.status).toBe(
      'priced',
    );
    expect(pricePackage(CTX, { ...PKG, weight: undefined }).charge.reason).toMatch(/no weight/);
    expect(pricePackage(CTX, { ...PKG, manifestDate: new Date('1999-06-01') }).charge.reason).toMatch(
      /no Carrier Express rate card is in force/,
    );
  });
});
