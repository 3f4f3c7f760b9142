// The part of `zipcodes` (no published @types) that is imported directly: its codes are read through postal-codes.ts.
declare module 'zipcodes/lib/states.js' {
  /** US state names in upper case → their two-letter codes. */
  export const full: Record<string, string>;
}
