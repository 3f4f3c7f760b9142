/**
 * For tests, under noUncheckedIndexedAccess: the value read by index, or a failure that says what was missing
 * (rather than a `!` that turns a missing value into a TypeError further on).
 */
export function defined<T>(value: T | undefined, what = 'a value'): T {
  if (value === undefined) throw new Error(`expected ${what}, got undefined`);
  return value;
}
