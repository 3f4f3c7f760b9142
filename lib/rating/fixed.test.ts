// The fixed-point functions on their own: parsing, exact arithmetic, rounding, text.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ceilDivide,
  compare,
  divide,
  Fixed,
  fixed,
  isZero,
  normalize,
  parseDecimal,
  plus,
  round,
  shift,
  times,
  toFixedText,
  ZERO,
} from './fixed';
import { billableWeight, toPounds } from './quote-rates';

const units = (f: Fixed) => [f.units, f.scale];

describe('fixed (canonical schema text)', () => {
  it('reads whole numbers, decimals and zero, keeping the written scale', () => {
    expect(units(fixed('0'))).toEqual([0n, 0]);
    expect(units(fixed('0.00'))).toEqual([0n, 2]);
    expect(units(fixed('12'))).toEqual([12n, 0]);
    expect(units(fixed('7.50'))).toEqual([750n, 2]);
    expect(units(fixed('0.0625'))).toEqual([625n, 4]);
  });

  it('reads the schemas’ maximum values exactly', () => {
    // rate weight ≤ 10000 (3 decimals), sizes ≤ 1000 (2 decimals), container weight ≤ 100000.
    expect(units(fixed('10000.000'))).toEqual([10000000n, 3]);
    expect(units(fixed('999.99'))).toEqual([99999n, 2]);
    expect(fixed('100000').toString()).toBe('100000');
  });

  it('reads many decimals without losing any (no float on the way)', () => {
    const text = '0.1234567890123456789012345678901234567891';
    expect(fixed(text).toString()).toBe(text);
    expect(fixed('123456789012345678901234567890.5').toString()).toBe('123456789012345678901234567890.5');
    // 0.1 + 0.2 is 0.3 exactly, not 0.30000000000000004
    expect(plus(fixed('0.1'), fixed('0.2')).toString()).toBe('0.3');
  });

  it.each(['', ' 1', '1 ', '-1', '+1', '1e3', '.5', '5.', '1,5', '0x10', 'NaN', 'Infinity', '１'])('refuses %j', (text) => {
    expect(() => fixed(text)).toThrow(/not a non-negative decimal/);
  });
});

describe('parseDecimal (rate-card columns, any decimal text)', () => {
  it('drops trailing zeros, so the scale is the significant decimals', () => {
    expect(units(parseDecimal('0.50')!)).toEqual([5n, 1]);
    expect(units(parseDecimal('10.00')!)).toEqual([10n, 0]);
    expect(units(parseDecimal('0')!)).toEqual([0n, 0]);
    expect(units(parseDecimal('0.000')!)).toEqual([0n, 0]);
  });

  it('reads exponent forms, as Prisma’s Decimal.toString() can write them', () => {
    expect(parseDecimal('1e-7')!.toString()).toBe('0.0000001');
    expect(parseDecimal('1.5E+3')!.toString()).toBe('1500');
    expect(parseDecimal('2.5e1')!.toString()).toBe('25');
    expect(parseDecimal('.5')!.toString()).toBe('0.5');
    expect(parseDecimal('5.')!.toString()).toBe('5');
    expect(parseDecimal('+2')!.toString()).toBe('2');
  });

  it.each(['', '-1', '1e', 'e5', '1.2.3', 'abc', '1e101', '1e-101', '1e99999999999999999999', ' 1'])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });
});

describe('arithmetic', () => {
  it('multiplies and adds exactly', () => {
    expect(times(fixed('2.5'), fixed('2.20462')).toString()).toBe('5.51155');
    expect(plus(fixed('9'), fixed('1.125')).toString()).toBe('10.125');
    expect(shift(times(fixed('9.00'), fixed('12.5')), 2).toString()).toBe('1.125'); // 12.5 % of 9
    expect(times(ZERO, fixed('123.456')).toString()).toBe('0');
    expect(isZero(fixed('0.000'))).toBe(true);
    expect(isZero(fixed('0.001'))).toBe(false);
  });

  it('compares across scales', () => {
    expect(compare(fixed('2'), fixed('2.000'))).toBe(0);
    expect(compare(fixed('2.001'), fixed('2'))).toBe(1);
    expect(compare(fixed('1.9999'), fixed('2'))).toBe(-1);
    expect(compare(ZERO, fixed('0.0'))).toBe(0);
    expect(compare(fixed('0.0001'), ZERO)).toBe(1);
  });

  it('multiplies the largest parcel without overflow: 1000 × 1000 × 1000 and 999.99³', () => {
    const max = fixed('1000.00');
    expect(times(times(max, max), max).toString()).toBe('1000000000');
    const v = times(times(fixed('999.99'), fixed('999.99')), fixed('999.99'));
    expect(v.toString()).toBe('999970000.299999');
    // ÷ 139 in whole 0.01 lb steps: ⌈999970000.299999 ÷ 1.39⌉ 0.01-lb steps
    expect(ceilDivide(v, times(fixed('139'), fixed('0.01')))).toBe(719402878n);
    // The heaviest request: 10000 kg in pounds, exact.
    expect(toPounds('10000.000', 'kg').toString()).toBe('22046.2');
    expect(toPounds('10000.000', 'oz').toString()).toBe('625');
  });

  it('normalizes without changing the value', () => {
    expect(units(normalize(fixed('1.2300')))).toEqual([123n, 2]);
    expect(units(normalize(fixed('100')))).toEqual([100n, 0]);
    expect(units(normalize(fixed('0.000')))).toEqual([0n, 0]);
  });
});

describe('rounding', () => {
  it('rounds half up at .005 and down just below it', () => {
    expect(toFixedText(fixed('9.045'), 2)).toBe('9.05');
    expect(toFixedText(fixed('9.044999'), 2)).toBe('9.04');
    expect(toFixedText(fixed('0.005'), 2)).toBe('0.01');
    expect(toFixedText(fixed('0.004'), 2)).toBe('0.00');
    expect(toFixedText(fixed('12.425'), 2)).toBe('12.43'); // half-even would give 12.42
    expect(toFixedText(fixed('99.995'), 2)).toBe('100.00'); // carries into the whole part
  });

  it('pads to exactly the places asked', () => {
    expect(toFixedText(fixed('9'), 2)).toBe('9.00');
    expect(toFixedText(ZERO, 2)).toBe('0.00');
    expect(toFixedText(fixed('0.5'), 0)).toBe('1');
    expect(toFixedText(fixed('0.49'), 0)).toBe('0');
    expect(fixed('2.0').toFixed(2)).toBe('2.00');
  });

  it('round() keeps the value when it already has few enough decimals, and rounds each way', () => {
    const a = fixed('1.5');
    expect(round(a, 2, 'half-up')).toBe(a);
    expect(round(fixed('1.2345'), 2, 'half-up').toString()).toBe('1.23');
    expect(round(fixed('1.2350'), 2, 'half-up').toString()).toBe('1.24');
    expect(round(fixed('1.231'), 2, 'up').toString()).toBe('1.24');
    expect(round(fixed('1.239'), 2, 'down').toString()).toBe('1.23');
    expect(round(fixed('1.230'), 2, 'up').toString()).toBe('1.23'); // exact: not pushed up
  });

  it('divides with the rounding it is told', () => {
    expect(divide(fixed('1'), fixed('3'), 4, 'down').toString()).toBe('0.3333');
    expect(divide(fixed('2'), fixed('3'), 4, 'half-up').toString()).toBe('0.6667');
    expect(divide(fixed('1'), fixed('3'), 4, 'up').toString()).toBe('0.3334');
    expect(divide(fixed('960'), fixed('100'), 2, 'up').toString()).toBe('9.6');
    expect(divide(fixed('0.09'), fixed('2'), 2, 'half-up').toString()).toBe('0.05'); // 0.045 → 0.05
    expect(divide(ZERO, fixed('7'), 2, 'up').toString()).toBe('0');
    expect(() => divide(fixed('1'), ZERO, 2, 'up')).toThrow(RangeError);
  });

  it('agrees with decimal.js (ROUND_HALF_UP / ROUND_UP / ROUND_DOWN) on random values', () => {
    const text = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 8 }))
      .map(([u, s]) => new Fixed(u, s).toString());
    const positive = text.filter((t) => t !== '0');
    const modes = [
      ['half-up', Decimal.ROUND_HALF_UP],
      ['up', Decimal.ROUND_UP],
      ['down', Decimal.ROUND_DOWN],
    ] as const;
    fc.assert(
      fc.property(text, positive, fc.integer({ min: 0, max: 6 }), fc.constantFrom(...modes), (a, b, places, [mode, dm]) => {
        const D = Decimal.clone({ precision: 100 });
        expect(divide(fixed(a), fixed(b), places, mode).toFixed(places)).toBe(new D(a).dividedBy(b).toFixed(places, dm));
        expect(round(fixed(a), places, mode).toFixed(places)).toBe(new D(a).toFixed(places, dm));
        expect(times(fixed(a), fixed(b)).toString()).toBe(new D(a).times(b).toFixed());
        expect(plus(fixed(a), fixed(b)).toString()).toBe(new D(a).plus(b).toFixed());
        expect(compare(fixed(a), fixed(b))).toBe(new D(a).comparedTo(b));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('billableWeight in Fixed', () => {
  const card = { dimDivisor: fixed('139'), weightStepLb: fixed('0.5') };
  const dims = (l: string, w: string, h: string) => ({ length: fixed(l), width: fixed(w), height: fixed(h) });

  it('rounds the heavier of actual and dimensional up to the step, exactly', () => {
    // 139 in³ ÷ 139 = exactly 1 lb: not rounded past it.
    const r = billableWeight(card, fixed('0.2'), dims('139', '1', '1'));
    expect([r.billable.toString(), r.dimHeavier, r.dimLb.toString()]).toEqual(['1', true, '1']);
    // 140 in³ ÷ 139 = 1.007194… lb → 1.5 lb; shown to 6 decimals, rounded up.
    const s = billableWeight(card, fixed('0.2'), dims('140', '1', '1'));
    expect([s.billable.toFixed(1), s.dimHeavier, s.dimLb.toString()]).toEqual(['1.5', true, '1.007195']);
    // actual heavier
    const t = billableWeight(card, fixed('2.01'), dims('1', '1', '1'));
    expect([t.billable.toFixed(1), t.dimHeavier]).toEqual(['2.5', false]);
  });

  it('handles the largest parcel the schema allows', () => {
    const r = billableWeight(card, fixed('22046.2'), dims('1000', '1000', '1000'));
    // 1e9 ÷ 139 = 7194244.604… lb → 7194245 lb (0.5 lb steps).
    expect([r.billable.toString(), r.dimHeavier, r.dimLb.toString()]).toEqual(['7194245', true, '7194244.604317']);
  });
});
