import { describe, expect, it } from 'vitest';
import { RATE_CARDS } from '../../prisma/seed-data/rate-cards';
import { parseRateCard } from '@/lib/rating/parse-rate-card';
import { cents, centsText, rerate, type StoredForRerating } from './adjust';
import { pricePackage } from './pricing';
import { quoteKeyFrom } from './quote-id';

const CARDS = RATE_CARDS.map(parseRateCard);
const NOW = new Date('2026-11-29T10:00:00Z');
const DECLARED = { weight: '3', weightUnit: 'lb', length: '10', width: '8', height: '6' };
const LANE = { fromPostal: '10001', toPostal: '90210' };
const charge = pricePackage(
  { cards: CARDS, keys: [quoteKeyFrom(Buffer.alloc(32))], accountId: 'a', environment: 'test', now: NOW },
  { service: 'Carrier Express', manifestDate: NOW, ...DECLARED, ...LANE },
).charge;
const STORED: StoredForRerating = { charge, declared: DECLARED, lane: LANE };

describe('cents', () => {
  it('reads and writes signed two-decimal amounts exactly', () => {
    expect(cents('12.40')).toBe(1240n);
    expect(cents('-0.05')).toBe(-5n);
    expect(centsText(-5n)).toBe('-0.05');
    expect(centsText(cents('71.15') - cents('80.53'))).toBe('-9.38');
  });
});

describe('rerate', () => {
  it('re-rates a heavier package on the same card version: after − before, reason weight', () => {
    const r = rerate({ cards: CARDS, stored: STORED, measured: { weight: '12', weight_unit: 'lb' }, scanId: 's1', now: NOW });
    expect(r?.adjustment).toMatchObject({ before: charge.amount, reason: 'weight', scan_id: 's1', card_version: 1 });
    expect(cents(r!.adjustment.after) - cents(charge.amount!)).toBe(cents(r!.adjustment.amount));
    expect(r?.charge.amount).toBe(r?.adjustment.after);
    expect(r?.charge.adjustments).toHaveLength(1);
  });

  it('credits a lighter one (a negative adjustment) and names dimensions when the box set the billable weight', () => {
    const lighter = rerate({
      cards: CARDS,
      stored: { ...STORED, declared: { ...DECLARED, weight: '20' }, charge: { ...charge, amount: '99.00' } },
      measured: { weight: '1', weight_unit: 'lb' },
      scanId: null,
      now: NOW,
    });
    expect(lighter?.adjustment.amount.startsWith('-')).toBe(true);
    const bigger = rerate({
      cards: CARDS,
      stored: STORED,
      measured: { length: '20', width: '20', height: '20' },
      scanId: null,
      now: NOW,
    });
    expect(bigger?.adjustment.reason).toBe('dimensions');
  });

  it('changes nothing when the measurement is what was declared, or the charge is not priced', () => {
    expect(
      rerate({ cards: CARDS, stored: STORED, measured: { weight: '48', weight_unit: 'oz' }, scanId: null, now: NOW }),
    ).toBeUndefined();
    const voided = { ...STORED, charge: { ...charge, status: 'voided' as const } };
    expect(
      rerate({ cards: CARDS, stored: voided, measured: { weight: '12', weight_unit: 'lb' }, scanId: null, now: NOW }),
    ).toBeUndefined();
    const gone = { ...STORED, charge: { ...charge, card_version: 9 } };
    expect(
      rerate({ cards: CARDS, stored: gone, measured: { weight: '12', weight_unit: 'lb' }, scanId: null, now: NOW }),
    ).toBeUndefined();
  });
});
