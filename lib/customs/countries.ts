import { iso31661 } from 'iso-3166/1.js';
import { airport } from '@/lib/rating/locations';

// Countries as customs regimes need them: an ISO 3166-1 alpha-2 code from what a package says (ToCountry is the
// contract's free text: "DE", "DEU", "Germany", "United States") or from an airport (the airport dataset names its
// country in OpenFlights' English, which mostly matches ISO's short names).

/** Names ISO writes otherwise, as people and the OpenFlights airport data write them. */
const ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'united states': 'US',
  'u.s.a.': 'US',
  'u.s.': 'US',
  america: 'US',
  uk: 'GB',
  'united kingdom': 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  netherlands: 'NL',
  holland: 'NL',
  'czech republic': 'CZ',
  turkey: 'TR',
  russia: 'RU',
  'south korea': 'KR',
  korea: 'KR',
  'north korea': 'KP',
  taiwan: 'TW',
  vietnam: 'VN',
  laos: 'LA',
  iran: 'IR',
  syria: 'SY',
  bolivia: 'BO',
  venezuela: 'VE',
  tanzania: 'TZ',
  moldova: 'MD',
  macedonia: 'MK',
  micronesia: 'FM',
  brunei: 'BN',
  burma: 'MM',
  'east timor': 'TL',
  macau: 'MO',
  palestine: 'PS',
  swaziland: 'SZ',
  'cape verde': 'CV',
  reunion: 'RE',
  "cote d'ivoire": 'CI',
  'ivory coast': 'CI',
  'congo (brazzaville)': 'CG',
  'congo (kinshasa)': 'CD',
  'falkland islands': 'FK',
  'saint helena': 'SH',
  'virgin islands': 'VI',
  'british virgin islands': 'VG',
  'netherlands antilles': 'CW',
  'midway islands': 'UM',
  'johnston atoll': 'UM',
  'wake island': 'UM',
  kosovo: 'XK',
};

let byName: Map<string, string> | undefined;

function names(): Map<string, string> {
  if (!byName) {
    byName = new Map();
    for (const country of iso31661) {
      byName.set(country.alpha2.toLowerCase(), country.alpha2);
      byName.set(country.alpha3.toLowerCase(), country.alpha2);
      byName.set(country.name.toLowerCase(), country.alpha2);
    }
    byName.set('xk', 'XK');
    for (const [alias, code] of Object.entries(ALIASES)) byName.set(alias, code);
  }
  return byName;
}

/** The ISO 3166-1 alpha-2 code a country field names (code, alpha-3 or English name, any case), or undefined. */
export function countryCode(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const key = text.trim().toLowerCase();
  if (key === '' || key.length > 100) return undefined;
  return names().get(key);
}

/** The country of an IATA airport (the rating's airport dataset), or undefined when the code is unknown. */
export function airportCountry(iata: unknown): string | undefined {
  if (typeof iata !== 'string') return undefined;
  const found = airport(iata);
  return found ? countryCode(found.country) : undefined;
}

/** An IATA airport's IANA time zone, or undefined. */
export function airportTimeZone(iata: unknown): string | undefined {
  if (typeof iata !== 'string') return undefined;
  return airport(iata)?.tz;
}
