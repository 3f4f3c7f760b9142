import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { awb, awbCheckDigitValid, decimal, isoDateTime, postalCode, text, usZip } from './fields';

function parse<S extends z.ZodType>(schema: S, value: unknown) {
  const result = z.object({ f: schema }).safeParse({ f: value });
  return result.success
    ? { ok: true as const, value: (result.data as { f: unknown }).f }
    : { ok: false as const, message: result.error.issues[0]?.message };
}

describe('AWB check digit', () => {
  it.each([
    ['00012345675', true], // 1234567 mod 7 = 5
    ['16012345675', true], // the airline prefix is not part of the check
    ['00012345670', false],
    ['00077777770', true], // 7777777 mod 7 = 0
    ['00099999992', true], // 9999999 mod 7 = 2
    ['00099999990', false],
    ['0001234567', false],
  ])('%s -> %s', (digits, valid) => {
    expect(awbCheckDigitValid(digits)).toBe(valid);
  });

  it('normalises a hyphen or space after the prefix', () => {
    expect(parse(awb(), '000-12345675')).toEqual({ ok: true, value: '00012345675' });
    expect(parse(awb(), '000 12345675')).toEqual({ ok: true, value: '00012345675' });
    expect(parse(awb(), 12345675)).toMatchObject({ ok: false });
    expect(parse(awb(), '0001-2345675')).toMatchObject({ ok: false });
  });
});

describe('postal codes', () => {
  it.each([
    ['90210', '90210'],
    ['90210-1234', '90210-1234'],
    ['902101234', '90210-1234'],
    [90210, '90210'],
    ['M5X 1A9', 'M5X 1A9'],
    ['m5x1a9', 'M5X 1A9'],
    ['K1A 0B1', 'K1A 0B1'],
  ])('accepts %s as %s', (input, output) => {
    expect(parse(postalCode(), input)).toEqual({ ok: true, value: output });
  });

  it.each(['9021', '90210-12', 'ABCDE', 'D5X 1A9', 'M5X 1A', 'W1A 0AX', '12345 6789'])('refuses %s', (input) => {
    expect(parse(postalCode(), input)).toMatchObject({ ok: false });
  });

  it('takes only US codes where a ZIP is required', () => {
    expect(parse(usZip(), '10001-0001')).toEqual({ ok: true, value: '10001-0001' });
    expect(parse(usZip(), 'M5X 1A9')).toMatchObject({ ok: false, message: expect.stringContaining('US ZIP') });
  });
});

describe('decimals', () => {
  it('accepts numbers and numeric text, keeping the exact decimal text', () => {
    expect(parse(decimal(), 10.25)).toEqual({ ok: true, value: '10.25' });
    expect(parse(decimal(), '010.50')).toEqual({ ok: true, value: '10.50' });
    expect(parse(decimal(), ' 7 ')).toEqual({ ok: true, value: '7' });
  });

  it('enforces decimal places, sign and bounds with one clear message', () => {
    expect(parse(decimal({ maxDecimals: 2 }), 1.234)).toEqual({ ok: false, message: 'must have at most 2 decimal places' });
    expect(parse(decimal({ maxDecimals: 2 }), 1.23)).toEqual({ ok: true, value: '1.23' });
    expect(parse(decimal(), 0)).toEqual({ ok: false, message: 'must be greater than 0' });
    expect(parse(decimal(), -3)).toEqual({ ok: false, message: 'must be greater than 0' });
    expect(parse(decimal({ max: 100 }), 100.01)).toEqual({ ok: false, message: 'must be at most 100' });
    expect(parse(decimal(), 1e21)).toEqual({ ok: false, message: 'must be a number' });
    expect(parse(decimal(), '1e3')).toEqual({ ok: false, message: 'must be a number' });
    expect(parse(decimal(), true)).toEqual({ ok: false, message: 'must be a number' });
  });

  it('checks bounds on the exact decimal, not a float rounding of it', () => {
    // As a double both are exactly the bound (1 and 0): only exact comparison sees past it.
    const fine = decimal({ max: 1, maxDecimals: 20 });
    expect(parse(fine, '1.00000000000000000001')).toEqual({ ok: false, message: 'must be at most 1' });
    expect(parse(fine, '1.00000000000000000000')).toEqual({ ok: true, value: '1.00000000000000000000' });
    expect(parse(fine, '0.00000000000000000001')).toEqual({ ok: true, value: '0.00000000000000000001' });
    expect(parse(decimal({ max: 10_000, maxDecimals: 3 }), '10000.001')).toEqual({ ok: false, message: 'must be at most 10000' });
    expect(parse(decimal({ max: 10_000, maxDecimals: 3 }), '10000.000')).toEqual({ ok: true, value: '10000.000' });
  });

  it('treats "", whitespace and null as no value', () => {
    expect(parse(decimal(), '')).toEqual({ ok: true, value: undefined });
    expect(parse(decimal(), null)).toEqual({ ok: true, value: undefined });
    expect(parse(decimal({ required: true }), '  ')).toEqual({ ok: false, message: 'is required' });
  });
});

describe('text', () => {
  it('accepts a number where text is documented', () => {
    expect(parse(text(), 42)).toEqual({ ok: true, value: '42' });
  });
  it('refuses objects and over-long text', () => {
    expect(parse(text(), { a: 1 })).toEqual({ ok: false, message: 'must be a string' });
    expect(parse(text({ max: 3 }), 'abcd')).toEqual({ ok: false, message: 'must be at most 3 characters' });
  });
});

describe('ISO 8601 manifest dates', () => {
  it.each([
    ['2026-11-23', { instant: '2026-11-23T00:00:00.000Z', day: '2026-11-23' }],
    ['2026-11-23T08:00:00Z', { instant: '2026-11-23T08:00:00.000Z', day: '2026-11-23' }],
    ['2026-11-23T20:00:00-05:00', { instant: '2026-11-24T01:00:00.000Z', day: '2026-11-23' }],
    ['2026-11-23T08:00:00.123456+0530', { instant: '2026-11-23T02:30:00.123Z', day: '2026-11-23' }],
    ['2026-11-23 08:00', { instant: '2026-11-23T08:00:00.000Z', day: '2026-11-23' }],
  ])('reads %s', (input, expected) => {
    expect(parse(isoDateTime(), input)).toEqual({ ok: true, value: expected });
  });

  it.each(['2026-02-30', '23/11/2026', 'tomorrow', '2026-11-23T25:00:00Z'])('refuses %s', (input) => {
    expect(parse(isoDateTime(), input)).toMatchObject({ ok: false });
  });
});

describe('manifest dates are real days in 2000-2099', () => {
  it.each([
    ['2000-01-01', '2000-01-01T00:00:00.000Z'],
    ['2099-12-31T23:59:59Z', '2099-12-31T23:59:59.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['2026-11-23T23:59:59.999+23:59', '2026-11-23T00:00:59.999Z'],
  ])('accepts %s', (input, instant) => {
    expect(parse(isoDateTime(), input)).toEqual({ ok: true, value: { instant, day: input.slice(0, 10) } });
  });

  it.each([
    ['1999-12-31', 'must be in the years 2000 to 2099'],
    ['2100-01-01', 'must be in the years 2000 to 2099'],
    ['0000-01-01', 'must be in the years 2000 to 2099'],
    ['9999-12-31T00:00:00Z', 'must be in the years 2000 to 2099'],
    ['2026-02-30', 'is not a real calendar date'],
    ['2026-02-29', 'is not a real calendar date'],
    ['2100-02-29', 'is not a real calendar date'],
    ['2026-13-01', 'is not a real calendar date'],
    ['2026-00-10', 'is not a real calendar date'],
    ['2026-04-31', 'is not a real calendar date'],
    ['0000-00-00', 'is not a real calendar date'],
    ['9999-99-99', 'is not a real calendar date'],
    ['2026-11-23T24:00', 'is not a valid time of day'],
    ['2026-11-23T24:00:00Z', 'is not a valid time of day'],
    ['2026-11-23T23:60:00Z', 'is not a valid time of day'],
    ['2026-11-23T23:59:60Z', 'is not a valid time of day'],
    ['2026-11-23T08:00:00+24:00', 'has an impossible UTC offset'],
    ['2026-11-23T08:00:00+05:60', 'has an impossible UTC offset'],
  ])('refuses %s: %s', (input, message) => {
    expect(parse(isoDateTime(), input)).toEqual({ ok: false, message });
  });

  it('refuses a date with NUL by the text rule, and an over-long one before any pattern runs', () => {
    expect(parse(isoDateTime(), '2026-11-23\u0000')).toEqual({
      ok: false,
      message: 'must not contain control characters (found NUL at position 10)',
    });
    expect(parse(isoDateTime(), '2'.repeat(1_001))).toEqual({ ok: false, message: 'must be at most 40 characters' });
  });
});

describe('text limits and the text rule in every field builder', () => {
  it('accepts the maximum length and refuses one past it', () => {
    expect(parse(text({ max: 255 }), 'a'.repeat(255))).toEqual({ ok: true, value: 'a'.repeat(255) });
    expect(parse(text({ max: 255 }), 'a'.repeat(256))).toEqual({ ok: false, message: 'must be at most 255 characters' });
    // Surrounding blanks do not count, as before.
    expect(parse(text({ max: 3 }), '  abc  ')).toEqual({ ok: true, value: 'abc' });
    expect(parse(text({ max: 255 }), 'a'.repeat(5_000_000))).toEqual({ ok: false, message: 'must be at most 255 characters' });
  });

  it('allows tab and line breaks only in multi-line text', () => {
    expect(parse(text({ multiline: true }), 'line 1\r\nline 2\tend')).toEqual({ ok: true, value: 'line 1\r\nline 2\tend' });
    expect(parse(text(), 'line 1\nline 2')).toEqual({
      ok: false,
      message: 'must not contain control characters (found U+000A at position 6)',
    });
    expect(parse(text({ multiline: true }), 'a\u0000')).toMatchObject({ ok: false });
  });

  it.each([
    ['text', text()],
    ['decimal', decimal()],
    ['postal code', postalCode()],
    ['US ZIP', usZip()],
    ['AWB', awb()],
    ['date', isoDateTime()],
  ])('%s: NUL and a lone surrogate get the text rule message', (_name, schema) => {
    expect(parse(schema, '1\u0000')).toEqual({
      ok: false,
      message: 'must not contain control characters (found NUL at position 1)',
    });
    expect(parse(schema, '1\ud800')).toEqual({
      ok: false,
      message: 'must be valid Unicode text (it contains an unpaired surrogate)',
    });
  });

  it('reads no number from a megabyte of digits', () => {
    expect(parse(decimal(), '1'.repeat(1_001))).toEqual({ ok: false, message: 'must be a number' });
  });
});
