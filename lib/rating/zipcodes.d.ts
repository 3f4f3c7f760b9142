// The parts of `zipcodes` (no published @types) that rating and address checks use.
declare module 'zipcodes' {
  export interface ZipCodeInfo {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string | number): ZipCodeInfo | undefined;
  /** Every entry by code: US ZIPs (country "US") and Canadian forward sortation areas (country "Canada"). */
  export const codes: Record<string, ZipCodeInfo>;
  /** US state names in upper case → their two-letter codes. */
  export const states: { full: Record<string, string> };
}
