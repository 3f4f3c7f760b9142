// US ZIPs and Canadian forward sortation areas with their centroid, city and state or province: the `zipcodes`
// dataset, read from the JSON copy npm install writes (scripts/postal-codes.mjs says why) on first use, or from the
// package itself when that copy is missing or is of another version of it. Framework-free: no Prisma, no Next, no HTTP.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PostalPlace {
  /** The key: a US ZIP (5 digits) or a Canadian forward sortation area (A1A). */
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  /** A US state's two-letter code; a Canadian province's name. */
  state: string;
  country: 'US' | 'Canada' | (string & {});
}

type Row = [string, number, number, string, string, string];

let byCode: Map<string, PostalPlace> | undefined;

/** The dataset from the JSON copy at `copy`, or from the package when the copy is missing or of another version. */
export function readPostalPlaces(
  copy = path.join(process.cwd(), 'lib', 'generated', 'postal-codes.json'),
): Map<string, PostalPlace> {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const { version } = require('zipcodes/package.json') as { version: string };
  const data = existsSync(copy) ? (JSON.parse(readFileSync(copy, 'utf8')) as { version?: string; rows?: Row[] }) : {};
  const places = new Map<string, PostalPlace>();
  if (data.version === version && Array.isArray(data.rows)) {
    for (const [zip, latitude, longitude, city, state, country] of data.rows)
      places.set(zip, { zip, latitude, longitude, city, state, country });
  } else {
    const { codes } = require('zipcodes') as { codes: Record<string, PostalPlace> };
    for (const [zip, place] of Object.entries(codes)) places.set(zip, place);
  }
  return places;
}

function places(): Map<string, PostalPlace> {
  byCode ??= readPostalPlaces();
  return byCode;
}

/** By the exact key: 5 digits for a US ZIP, the first three characters for a Canadian postal code. */
export function lookupPostalCode(code: string): PostalPlace | undefined {
  return places().get(code);
}

/** Every entry, US and Canadian. */
export function allPostalPlaces(): IterableIterator<PostalPlace> {
  return places().values();
}

/** Loads the dataset now (a server does just after it is ready), not in the first request that needs it. */
export function loadPostalCodes(): void {
  places();
}
