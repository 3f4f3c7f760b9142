// The one number system for weights, sizes and money (docs/decisions/one-number-system.md): exact non-negative decimals
// as BigInt units / 10^scale, no binary float. Every operation is exact except those that say how they round.

export class Fixed {
  constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  toString(): string {
    return plainText(normalize(this));
  }

  toFixed(places: number): string {
    return toFixedText(this, places);
  }
}

export const ZERO = new Fixed(0n, 0);

const POWERS: bigint[] = [];

function pow10(n: number): bigint {
  return (POWERS[n] ??= 10n ** BigInt(n));
}

const PLAIN = /^\d+(\.\d+)?$/;

export function fixed(text: string): Fixed {
  if (!PLAIN.test(text)) throw new Error(`not a non-negative decimal: ${text}`);
  return plain(text);
}

function plain(text: string): Fixed {
  const dot = text.indexOf('.');
  if (dot < 0) return new Fixed(BigInt(text), 0);
  return new Fixed(BigInt(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1);
}

// What decimal.js and Prisma's Decimal.toString() can write ("1e-7", "1.5E+21").
const GENERAL = /^\+?(\d+\.?\d*|\.\d+)(?:e([+-]?\d+))?$/i;
// Exponents beyond this are not weights, sizes or money: refused rather than allocating a huge BigInt.
const MAX_EXPONENT = 100;

// Trailing zeros dropped, so the scale counts significant decimals as decimal.js would ("0.50" → 0.5).
export function parseDecimal(text: string): Fixed | undefined {
  const [, digits, exponentText] = GENERAL.exec(text) ?? [];
  if (digits === undefined) return undefined;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT) return undefined;
  let mantissa = digits;
  if (mantissa.endsWith('.')) mantissa = mantissa.slice(0, -1);
  if (mantissa.startsWith('.')) mantissa = `0${mantissa}`;
  const p = plain(mantissa);
  const scale = p.scale - exponent;
  return normalize(scale >= 0 ? new Fixed(p.units, scale) : new Fixed(p.units * pow10(-scale), 0));
}

export function normalize(a: Fixed): Fixed {
  let { units, scale } = a;
  if (scale === 0) return a;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return scale === a.scale ? a : new Fixed(units, scale);
}

function at(a: Fixed, scale: number): bigint {
  return a.units * pow10(scale - a.scale);
}

export function times(a: Fixed, b: Fixed): Fixed {
  return new Fixed(a.units * b.units, a.scale + b.scale);
}

export function shift(a: Fixed, n: number): Fixed {
  return new Fixed(a.units, a.scale + n);
}

export function plus(a: Fixed, b: Fixed): Fixed {
  const scale = Math.max(a.scale, b.scale);
  return new Fixed(at(a, scale) + at(b, scale), scale);
}

export function compare(a: Fixed, b: Fixed): number {
  if (a.scale === b.scale) return a.units < b.units ? -1 : a.units > b.units ? 1 : 0;
  const scale = Math.max(a.scale, b.scale);
  const x = at(a, scale);
  const y = at(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZero(a: Fixed): boolean {
  return a.units === 0n;
}

export function ceilDivide(a: Fixed, b: Fixed): bigint {
  const n = a.units * pow10(b.scale);
  const d = b.units * pow10(a.scale);
  return (n + d - 1n) / d;
}

export type Rounding = 'up' | 'down' | 'half-up';

function divideUnits(n: bigint, d: bigint, rounding: Rounding): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if (rounding === 'up') return q + 1n;
  if (rounding === 'half-up') return r * 2n >= d ? q + 1n : q;
  return q;
}

export function round(a: Fixed, places: number, rounding: Rounding): Fixed {
  if (a.scale <= places) return a;
  return new Fixed(divideUnits(a.units, pow10(a.scale - places), rounding), places);
}

export function divide(a: Fixed, b: Fixed, places: number, rounding: Rounding): Fixed {
  if (b.units === 0n) throw new RangeError('division by zero');
  const n = a.units * pow10(b.scale + places);
  const d = b.units * pow10(a.scale);
  return new Fixed(divideUnits(n, d, rounding), places);
}

function plainText(a: Fixed): string {
  return digitsText(a.units, a.scale);
}

function digitsText(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const digits = units.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

export function toFixedText(a: Fixed, places: number): string {
  const units = a.scale <= places ? at(a, places) : divideUnits(a.units, pow10(a.scale - places), 'half-up');
  return digitsText(units, places);
}
