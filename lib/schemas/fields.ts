import { z } from 'zod';
import { textRuleViolation } from './text-rule';

// Field builders shared by every operation's schema: each accepts what published clients really send (numbers as
// text, text as numbers, "" or null for "no value") and outputs one normalised form, with one message per field.

type Ctx = z.RefinementCtx;

function fail(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

interface Presence<R extends boolean> {
  required: R;
}
type Out<T, R extends boolean> = R extends true ? T : T | undefined;

function presence<R extends boolean>(options: Partial<Presence<R>>): R;
function presence(options: Partial<Presence<boolean>>): boolean {
  return options.required ?? false;
}

type JsonMeta = Record<string, unknown> & { type: string | string[]; description?: string; maxLength?: number };

/** No field reads more text than this, whatever its own (smaller) maximum. */
const TEXT_GATE = 1_000;

/**
 * Every field first passes the same gate: a hard length limit (so no pattern or conversion sees a megabyte) and the
 * text rule (text-rule.ts), so no field carries what PostgreSQL refuses. Overloaded so the output type follows
 * `required`.
 */
function field<T, R extends boolean>(
  json: JsonMeta,
  required: R,
  convert: (value: unknown, ctx: Ctx) => T,
  options?: { multiline?: boolean; tooLong?: string },
): z.ZodPipe<z.ZodUnknown, z.ZodTransform<Out<T, R>, unknown>>;
function field(
  json: JsonMeta,
  required: boolean,
  convert: (value: unknown, ctx: Ctx) => unknown,
  options: { multiline?: boolean; tooLong?: string } = {},
): z.ZodType {
  const gate = Math.max(json.maxLength ?? 0, TEXT_GATE);
  const tooLong = options.tooLong ?? `must be at most ${json.maxLength ?? TEXT_GATE} characters`;
  const transform = z.unknown().transform((value, ctx) => {
    if (typeof value === 'string') {
      if (value.length > gate && value.trim().length > gate) return fail(ctx, tooLong);
      const violation = textRuleViolation(value, options);
      if (violation) return fail(ctx, violation);
    }
    if (blank(value)) return required ? fail(ctx, 'is required') : undefined;
    return convert(value, ctx);
  });
  const schema = transform.meta(accepted(json, required));
  // Optional fields must be marked so, or Zod reports an absent key as missing.
  return required ? schema : schema.optional();
}

const NUMERIC_TEXT = { integer: '^\\s*\\d+\\s*$', number: '^\\s*[+-]?\\d+(?:\\.\\d+)?\\s*$' } as const;
const BLANK_TEXT = '^\\s*$';

const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);

/**
 * A field's JSON Schema widened to all it accepts, so a client generated from the OpenAPI document takes the
 * published samples: numbers as numeric text, null and blank for optional fields. Keywords apply by type, so one
 * schema with a list of types needs no anyOf.
 */
function accepted(json: JsonMeta, required: boolean): JsonMeta {
  const out: JsonMeta = { ...json };
  const types = new Set<string>([json.type].flat());
  if (json.type === 'number' || json.type === 'integer') {
    types.add('string');
    out.pattern = NUMERIC_TEXT[json.type];
    out.maxLength ??= TEXT_GATE;
  }
  // Free text also takes a number ("Container Name": 42 in the published sample), read as its text.
  if (json.type === 'string' && json.pattern === undefined && json.enum === undefined && json.format === undefined)
    types.add('number');
  if (!required) {
    types.add('null');
    if (typeof out.pattern === 'string') out.pattern = `${out.pattern}|${BLANK_TEXT}`;
    if (isList(out.enum)) out.enum = [...out.enum, '', null];
    if (typeof out.format === 'string' && types.has('string')) {
      out.anyOf = [{ type: 'null' }, { format: out.format }, { pattern: BLANK_TEXT }];
      delete out.format;
    }
  }
  out.type = types.size === 1 ? json.type : [...types];
  return out;
}

/** Free text: `multiline` allows tab and line breaks; never other control characters, NUL or lone surrogates. */
export function text<R extends boolean = false>(options: { max?: number; multiline?: boolean } & Partial<Presence<R>> = {}) {
  const max = options.max ?? 255;
  const json: JsonMeta = {
    type: 'string',
    maxLength: max,
    ...(options.multiline
      ? { description: 'Tab and line breaks allowed; no other control characters.' }
      : { description: 'One line: no control characters.' }),
  };
  return field(
    json,
    presence(options),
    (value, ctx) => {
      const result = asText(value);
      if (result === undefined) return fail(ctx, 'must be a string');
      if (result.length > max) return fail(ctx, `must be at most ${max} characters`);
      return result;
    },
    { multiline: options.multiline },
  );
}

export function oneOf<const V extends string, R extends boolean = false>(
  values: readonly V[],
  options: Partial<Presence<R>> = {},
) {
  const byLowerCase = new Map(values.map((v) => [v.toLowerCase(), v] as const));
  const longest = Math.max(...values.map((v) => v.length));
  const json: JsonMeta = { type: 'string', enum: [...values], maxLength: longest, description: 'Case-insensitive.' };
  const message = `must be one of: ${values.join(', ')}`;
  return field(
    json,
    presence(options),
    (value, ctx): V => {
      const result = asText(value);
      const match = result === undefined ? undefined : byLowerCase.get(result.toLowerCase());
      return match ?? fail(ctx, message);
    },
    { tooLong: message },
  );
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** A positive decimal as canonical text ("007.50" -> "7.50"): no binary float touches a weight or a price. */
export function decimal<R extends boolean = false>(
  options: { maxDecimals?: number; max?: number; allowZero?: boolean } & Partial<Presence<R>> = {},
) {
  const { maxDecimals = 4, max = 1_000_000, allowZero = false } = options;
  if (!Number.isSafeInteger(max)) throw new Error(`decimal(): max must be a whole number, got ${max}`);
  const maxUnits = BigInt(max);
  const json: JsonMeta = {
    type: 'number',
    ...(allowZero ? { minimum: 0 } : { exclusiveMinimum: 0 }),
    maximum: max,
    description: `Decimal, at most ${maxDecimals} decimal places. A numeric string ("2.5") is accepted too.`,
  };
  return field(
    json,
    presence(options),
    (value, ctx) => {
      const raw = asText(value);
      const [, sign, digits, fractionDigits] = (raw === undefined ? null : DECIMAL.exec(raw)) ?? [];
      if (digits === undefined) return fail(ctx, 'must be a number');
      const whole = digits.replace(/^0+(?=\d)/, '');
      const fraction = fractionDigits ?? '';
      if (fraction.length > maxDecimals) return fail(ctx, `must have at most ${maxDecimals} decimal places`);
      const normalised = fraction ? `${whole}.${fraction}` : whole;
      // Compared as whole numbers of 10^-decimals (exact, like lib/rating/fixed.ts), never as a float.
      const units = BigInt(whole + fraction);
      if (sign === '-' && units !== 0n) return fail(ctx, allowZero ? 'must not be negative' : 'must be greater than 0');
      if (units === 0n && !allowZero) return fail(ctx, 'must be greater than 0');
      if (units > maxUnits * 10n ** BigInt(fraction.length)) return fail(ctx, `must be at most ${max}`);
      return normalised;
    },
    { tooLong: 'must be a number' },
  );
}

export function integer<R extends boolean = false>(options: { min?: number; max?: number } & Partial<Presence<R>> = {}) {
  const { min = 0, max = 1_000_000 } = options;
  const json: JsonMeta = { type: 'integer', minimum: min, maximum: max, description: 'A numeric string is accepted too.' };
  return field(
    json,
    presence(options),
    (value, ctx) => {
      const raw = asText(value);
      if (raw === undefined || !/^\d+$/.test(raw)) return fail(ctx, 'must be a whole number');
      const result = Number(raw);
      if (result < min || result > max) return fail(ctx, `must be between ${min} and ${max}`);
      return result;
    },
    { tooLong: 'must be a whole number' },
  );
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Manifest days every screen, export and query can show: the years 2000 to 2099. */
export const FIRST_MANIFEST_YEAR = 2000;
export const LAST_MANIFEST_YEAR = 2099;
const DATE_TIME_MAX_LENGTH = 40;

/** Why `year-month-day` is not a real calendar date within the documented years, or undefined. */
export function calendarDayViolation(year: string, month: string, day: string): string | undefined {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const daysInMonth = m >= 1 && m <= 12 ? new Date(Date.UTC(2000 + (y % 400), m, 0)).getUTCDate() : 0;
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth) return 'is not a real calendar date';
  if (y < FIRST_MANIFEST_YEAR || y > LAST_MANIFEST_YEAR) {
    return `must be in the years ${FIRST_MANIFEST_YEAR} to ${LAST_MANIFEST_YEAR}`;
  }
  return undefined;
}

export interface ManifestDateValue {
  /** The instant, as ISO 8601 in UTC. A value without an offset is read as UTC. */
  instant: string;
  /** The calendar day as the shipper wrote it: the day the carrier takes possession. */
  day: string;
}

export function isoDateTime<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = {
    type: 'string',
    // What the field reads, as a pattern: JSON Schema's `date-time` format would refuse a date alone or no offset.
    pattern: '^\\s*\\d{4}-\\d{2}-\\d{2}(?:[Tt ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:[Zz]|[+-]\\d{2}:?\\d{2})?)?\\s*$',
    maxLength: DATE_TIME_MAX_LENGTH,
    description:
      'ISO 8601 date or date-time; without an offset it is read as UTC. The calendar day is the manifest date, ' +
      `a real date in the years ${FIRST_MANIFEST_YEAR} to ${LAST_MANIFEST_YEAR}; hours 00-23.`,
    examples: ['2024-05-01T09:00:00Z'],
  };
  return field(json, presence(options), (value, ctx): ManifestDateValue => {
    const raw = asText(value);
    const match = raw === undefined ? null : ISO_DATE_TIME.exec(raw);
    if (!raw || !match) return fail(ctx, 'must be an ISO 8601 date or date-time, e.g. 2024-05-01T09:00:00Z');
    const [, y, m, d, hh = '00', mm = '00', ss = '00', zone] = match;
    if (y === undefined || m === undefined || d === undefined)
      return fail(ctx, 'must be an ISO 8601 date or date-time, e.g. 2024-05-01T09:00:00Z');
    const day = `${y}-${m}-${d}`;
    const dayViolation = calendarDayViolation(y, m, d);
    if (dayViolation) return fail(ctx, dayViolation);
    // JavaScript reads 24:00 as the next day and 23:59:60 as the next minute: neither is written here.
    if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return fail(ctx, 'is not a valid time of day');
    const offsetParts = zone ? /^[+-](\d{2}):?(\d{2})$/.exec(zone) : null;
    if (offsetParts && (Number(offsetParts[1]) > 23 || Number(offsetParts[2]) > 59))
      return fail(ctx, 'has an impossible UTC offset');
    const offset = !zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    const [, fractionDigits] = /\.(\d{1,9})/.exec(raw) ?? [];
    const millis = fractionDigits ? `.${fractionDigits.padEnd(3, '0').slice(0, 3)}` : '';
    const instant = new Date(`${day}T${hh}:${mm}:${ss}${millis}${offset}`);
    if (Number.isNaN(instant.getTime())) return fail(ctx, 'is not a valid time of day');
    return { instant: instant.toISOString(), day };
  });
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** ISO 8601 calendar date alone (a flight's date), a real day in the documented years; output as written, YYYY-MM-DD. */
export function isoDate<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = {
    type: 'string',
    pattern: '^\\s*\\d{4}-\\d{2}-\\d{2}\\s*$',
    maxLength: 20,
    description: `ISO 8601 date (YYYY-MM-DD), a real date in the years ${FIRST_MANIFEST_YEAR} to ${LAST_MANIFEST_YEAR}.`,
    examples: ['2026-12-01'],
  };
  return field(json, presence(options), (value, ctx) => {
    const raw = asText(value) ?? '';
    const [, y, m, d] = ISO_DATE.exec(raw) ?? [];
    if (y === undefined || m === undefined || d === undefined) return fail(ctx, 'must be an ISO 8601 date, e.g. 2026-12-01');
    const violation = calendarDayViolation(y, m, d);
    return violation ? fail(ctx, violation) : raw;
  });
}

export type IdentifierReading = { value: string } | { error: string };

/** A code with a format of its own: the common gate and text rule, then `read` normalises it or says what it takes. */
export function identifier<R extends boolean = false>(
  spec: {
    maxLength: number;
    description: string;
    examples?: string[];
    pattern?: string;
    enum?: readonly string[];
    number?: boolean;
  },
  read: (raw: string) => IdentifierReading,
  options: Partial<Presence<R>> = {},
) {
  const json: JsonMeta = {
    // `number`: the field documents a JSON number too (read as its text, like every field).
    type: spec.number ? ['string', 'number'] : 'string',
    maxLength: spec.maxLength,
    description: spec.description,
    ...(spec.pattern ? { pattern: spec.pattern } : {}),
    ...(spec.enum ? { enum: [...spec.enum] } : {}),
    ...(spec.examples ? { examples: spec.examples } : {}),
  };
  return field(json, presence(options), (value, ctx) => {
    const raw = asText(value);
    if (raw === undefined) return fail(ctx, 'must be a string');
    const reading = read(raw);
    return 'value' in reading ? reading.value : fail(ctx, reading.error);
  });
}

const US_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const IATA = /^[A-Za-z]{3}$/;
const AWB = /^(\d{3})[- ]?(\d{8})$/;
const TRACKING = /^[A-Za-z0-9._-]{1,64}$/;
const CA_POSTAL = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])\s?(\d[ABCEGHJ-NPRSTV-Z]\d)$/i;

export function usZip<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = {
    type: 'string',
    pattern: US_ZIP.source,
    maxLength: 10,
    description: 'US ZIP or ZIP+4.',
    examples: ['10001'],
  };
  return field(json, presence(options), (value, ctx) => {
    const match = US_ZIP.exec(asText(value) ?? '');
    if (!match) return fail(ctx, 'must be a US ZIP code (12345 or 12345-6789)');
    return match[2] ? `${match[1]}-${match[2]}` : match[1];
  });
}

export function postalCode<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = {
    type: 'string',
    maxLength: 10,
    description: 'US ZIP, ZIP+4, or Canadian postal code (A1A 1A1).',
    examples: ['10001', 'M5V 3L9'],
  };
  return field(json, presence(options), (value, ctx) => {
    const raw = asText(value) ?? '';
    const [, zip, plus4] = US_ZIP.exec(raw) ?? [];
    if (zip !== undefined) return plus4 ? `${zip}-${plus4}` : zip;
    const [, area, local] = CA_POSTAL.exec(raw) ?? [];
    if (area !== undefined && local !== undefined) return `${area} ${local}`.toUpperCase();
    return fail(ctx, 'must be a US ZIP code (12345 or 12345-6789) or a Canadian postal code (A1A 1A1)');
  });
}

export function email<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = { type: 'string', format: 'email', maxLength: 254 };
  return field(json, presence(options), (value, ctx) => {
    const raw = asText(value) ?? '';
    if (raw.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(raw)) return fail(ctx, 'must be an e-mail address');
    return raw;
  });
}

export function iataCode<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = {
    type: 'string',
    pattern: IATA.source,
    maxLength: 3,
    description: 'Three-letter IATA airport code.',
    examples: ['JFK'],
  };
  return field(json, presence(options), (value, ctx) => {
    const raw = asText(value) ?? '';
    if (!IATA.test(raw)) return fail(ctx, 'must be a three-letter IATA airport code');
    return raw.toUpperCase();
  });
}

/** The last of the 11 digits is the 7-digit serial before it, mod 7 (the airline prefix is not checked). */
export function awbCheckDigitValid(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  return Number(digits.slice(3, 10)) % 7 === Number(digits[10]);
}

/** Air waybill: 11 digits; "123-45678901" and "123 45678901" are accepted and normalised. */
export function awb<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = {
    type: 'string',
    pattern: AWB.source,
    maxLength: 12,
    description: 'Air waybill: 3-digit airline prefix and 8-digit serial; the last digit is the 7 before it mod 7.',
    examples: ['123-45678905'],
  };
  return field(json, presence(options), (value, ctx) => {
    const [, prefix, serial] = AWB.exec(asText(value) ?? '') ?? [];
    if (prefix === undefined || serial === undefined)
      return fail(ctx, 'must be 11 digits: the 3-digit airline prefix and an 8-digit serial');
    const digits = prefix + serial;
    if (!awbCheckDigitValid(digits)) return fail(ctx, 'has a wrong check digit (the last digit must be the 7 before it mod 7)');
    return digits;
  });
}

/** Tracking numbers are barcode content: letters, digits and - _ . only. */
export function trackingNumber<R extends boolean = false>(options: Partial<Presence<R>> = {}) {
  const json: JsonMeta = { type: 'string', pattern: TRACKING.source, maxLength: 64 };
  return field(json, presence(options), (value, ctx) => {
    const raw = asText(value) ?? '';
    if (!TRACKING.test(raw)) {
      return fail(ctx, 'must be 1 to 64 characters: letters, digits, "-", "_" or "."');
    }
    return raw;
  });
}
