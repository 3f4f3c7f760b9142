import { describe, expect, it } from 'vitest';
import { validateAddress } from './validate-address';

describe('validateAddress', () => {
  it('accepts a US address whose city and state agree with its ZIP, in any case and spelling of the state', () => {
    for (const state of ['CA', 'ca', 'California', 'CALIFORNIA']) {
      expect(validateAddress({ city: 'beverly hills', state, postalCode: '90210', country: 'US' })).toEqual({
        valid: true,
        country: 'US',
        messages: [],
        suggestion: null,
      });
    }
    expect(validateAddress({ city: 'St. Louis', state: 'MO', postalCode: '63101' }).valid).toBe(true);
  });

  it('names the city and the state that disagree with the ZIP, and suggests the ZIP’s', () => {
    const check = validateAddress({ address1: '9450 Wilshire Blvd', city: 'Toronto', state: 'ON', postalCode: '90210' });
    expect(check.valid).toBe(false);
    expect(check.messages.map((m) => m.path).sort()).toEqual(['city', 'state']);
    expect(check.messages.find((m) => m.path === 'city')?.message).toContain('Beverly Hills, CA');
    expect(check.suggestion).toEqual({ city: 'Beverly Hills', state: 'CA', postal_code: '90210', country: 'US' });
  });

  it('refuses a ZIP nobody uses and a code of neither country, with no suggestion', () => {
    expect(validateAddress({ postalCode: '00000' })).toMatchObject({
      valid: false,
      country: 'US',
      messages: [{ path: 'postal_code' }],
      suggestion: null,
    });
    expect(validateAddress({ postalCode: 'SW1A 1AA' })).toMatchObject({
      valid: false,
      country: null,
      messages: [{ path: 'postal_code' }],
    });
    expect(validateAddress({ postalCode: 'D1A 1A1' }).messages[0]?.path).toBe('postal_code');
  });

  it('checks a Canadian postal code against its province, by code or name', () => {
    expect(validateAddress({ city: 'Toronto', state: 'ON', postalCode: 'M5V 2T6', country: 'Canada' }).valid).toBe(true);
    expect(validateAddress({ state: 'Quebec', postalCode: 'h2x1y4' })).toMatchObject({
      valid: true,
      suggestion: { postal_code: 'H2X 1Y4', state: 'QC', country: 'CA' },
    });
    const wrong = validateAddress({ state: 'BC', postalCode: 'M5V 2T6' });
    expect(wrong.messages).toEqual([{ path: 'state', message: 'is "BC", but M5V 2T6 is in ON' }]);
    expect(wrong.suggestion?.state).toBe('ON');
    // X is used in two territories: either is right, and neither is suggested.
    expect(validateAddress({ state: 'NU', postalCode: 'X0A 0H0' }).valid).toBe(true);
    expect(validateAddress({ state: 'NT', postalCode: 'X0A 0H0' }).valid).toBe(true);
    expect(validateAddress({ state: 'ON', postalCode: 'X0A 0H0' }).suggestion).toBeNull();
  });

  it('names a country that disagrees with the postal code', () => {
    const check = validateAddress({ city: 'Toronto', state: 'ON', postalCode: 'M5V 2T6', country: 'US' });
    expect(check.messages).toEqual([{ path: 'country', message: 'is "US", but M5V 2T6 is a Canadian postal code' }]);
    expect(check.suggestion?.country).toBe('CA');
  });

  it('never throws on hostile text', () => {
    for (const text of ['\u0000', '\uD800', 'x'.repeat(10_000), '../../etc', '١٢٣٤٥']) {
      expect(() => validateAddress({ city: text, state: text, postalCode: text, country: text })).not.toThrow();
    }
  });
});
