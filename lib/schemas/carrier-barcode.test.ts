import { describe, expect, it } from 'vitest';
import { isCarrierBarcode, luhnCheckDigit } from './carrier-barcode';

describe('carrier barcode format', () => {
  it('computes the Luhn check digit of known numbers', () => {
    // 79927398713 is the textbook Luhn example: payload 7992739871, check digit 3.
    expect(luhnCheckDigit('7992739871')).toBe(3);
    expect(luhnCheckDigit('000000000000')).toBe(0);
  });

  it('accepts CB, 12 digits and the right check digit, in either case; refuses every single-digit change', () => {
    const payload = '123456789012';
    const good = `CB${payload}${luhnCheckDigit(payload)}`;
    expect(isCarrierBarcode(good)).toBe(true);
    expect(isCarrierBarcode(good.toLowerCase())).toBe(true);
    for (let i = 2; i < good.length; i++) {
      for (let d = 0; d <= 9; d++) {
        const changed = good.slice(0, i) + String(d) + good.slice(i + 1);
        if (changed !== good) expect(isCarrierBarcode(changed), changed).toBe(false);
      }
    }
    for (const bad of [
      '',
      'CB',
      `XX${payload}0`,
      `CB${payload}`,
      `CB${payload}00`,
      `CB ${payload}0`,
      `CB${payload.slice(1)}a0`,
    ]) {
      expect(isCarrierBarcode(bad), bad).toBe(false);
    }
  });
});
