// Minimal types for the parts of `zipcodes` (no published @types) that rating uses.
declare module 'zipcodes' {
  export interface ZipCodeInfo {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  /** US 5-digit ZIP (or Canadian FSA); undefined when the code is not in the dataset. */
  export function lookup(zip: string | number): ZipCodeInfo | undefined;
}
