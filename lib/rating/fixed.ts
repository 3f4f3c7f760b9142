// Exact non-negative decimals as integers: value = units / 10^scale. Pricing a card takes a dozen
// multiplications, additions and comparisons; in BigInt they are exact like decimal.js and cost a
// fraction of its per-operation allocations (bench/RESULTS.md, 2026-11-21).
import type Decimal from 'decimal.js';

export interface Fixed {
  units: bigint;
  scale: number;
}

const POWERS: bigint[] = [];

/** 10^n as a BigInt, remembered. */
function pow10(n: number): bigint {
  return (POWERS[n] ??= 10n ** BigInt(n));
}

const PLAIN = /^\d+(\.\d+)?$/;

/** From plain decimal text ("12", "0.0625") or a Decimal (written without an exponent). */
export function fixed(value: string | Decimal): Fixed {
  const text = typeof value === 'string' ? value : value.toFixed();
  if (!PLAIN.test(text)) throw new Error(`not a non-negative decimal: ${text}`);
  const dot = text.indexOf('.');
  if (dot < 0) return { units: BigInt(text), scale: 0 };
  return { units: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

/** The same value written with `scale` decimals (scale ≥ a.scale). */
function at(a: Fixed, scale: number): bigint {
  return a.units * pow10(scale - a.scale);
}

export function times(a: Fixed, b: Fixed): Fixed {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** a × 10^-n: n decimal places further right (÷ 100 is shift(a, 2)). */
export function shift(a: Fixed, n: number): Fixed {
  return { units: a.units, scale: a.scale + n };
}

export function plus(a: Fixed, b: Fixed): Fixed {
  const scale = Math.max(a.scale, b.scale);
  return { units: at(a, scale) + at(b, scale), scale };
}

/** -1, 0 or 1. */
export function compare(a: Fixed, b: Fixed): number {
  const scale = Math.max(a.scale, b.scale);
  const x = at(a, scale);
  const y = at(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** ⌈a ÷ b⌉ for b > 0, as a whole number. */
export function ceilDivide(a: Fixed, b: Fixed): bigint {
  // a/b = (a.units · 10^b.scale) / (b.units · 10^a.scale)
  const n = a.units * pow10(b.scale);
  const d = b.units * pow10(a.scale);
  return (n + d - 1n) / d;
}

/** Written with exactly `places` decimals, rounded half up (away from zero: values are never negative). */
export function toFixedText(a: Fixed, places: number): string {
  let units: bigint;
  if (a.scale <= places) {
    units = at(a, places);
  } else {
    const unit = pow10(a.scale - places);
    units = a.units / unit;
    if ((a.units % unit) * 2n >= unit) units += 1n;
  }
  if (places === 0) return units.toString();
  const digits = units.toString().padStart(places + 1, '0');
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
