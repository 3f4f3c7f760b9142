// Framework-free: no Prisma, no Next, no HTTP. Whether a US ZIP agrees with its city and state, and a Canadian postal
// code with its province, from the `zipcodes` dataset (US ZIPs and Canadian forward sortation areas) and ISO 3166-2's
// subdivision names. Streets are not checked: no dataset of them ships with the app.
import { iso31662 } from 'iso-3166';
import { full as stateCodes } from 'zipcodes/lib/states.js';
import { allPostalPlaces, lookupPostalCode as lookup } from '@/lib/places/postal-codes';

export interface AddressInput {
  address1?: string;
  city?: string;
  state?: string;
  postalCode: string;
  country?: string;
}

export interface AddressMessage {
  path: 'postal_code' | 'city' | 'state' | 'country';
  message: string;
}

export interface AddressCheck {
  valid: boolean;
  /** From the postal code's form: US or CA; null when it is neither. */
  country: 'US' | 'CA' | null;
  messages: AddressMessage[];
  /** Set only when the postal code is known, so the correction is certain: its city (US), state or province, country. */
  suggestion: { city: string | null; state: string; postal_code: string; country: 'US' | 'CA' } | null;
}

const US_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const CA_POSTAL = /^([A-Z]\d[A-Z]) ?(\d[A-Z]\d)$/;

const COUNTRY_NAMES: Record<string, 'US' | 'CA'> = {
  US: 'US',
  USA: 'US',
  'UNITED STATES': 'US',
  'UNITED STATES OF AMERICA': 'US',
  CA: 'CA',
  CAN: 'CA',
  CANADA: 'CA',
};

const normalCountry = (value: string) => value.toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();

/** Letters, lower case; the common abbreviations spelled out, so "St. Louis" is "Saint Louis". */
function normalCity(value: string): string {
  const words = value
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const spelled: Record<string, string> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount', pt: 'point' };
  return words.map((w) => spelled[w] ?? w).join(' ');
}

interface Subdivisions {
  /** Upper-case name or code → the two-letter code. */
  byName: Map<string, string>;
  /** A Canadian postal code's first letter → the provinces or territories it is used in. */
  caByLetter: Map<string, Set<string>>;
}

let built: Subdivisions | undefined;

// Built on first use (a few ms over the 44,000 codes), so that importing the module costs nothing.
function subdivisions(): Subdivisions {
  if (built) return built;
  const byName = new Map<string, string>();
  const caNames = new Map<string, string>();
  for (const { code, name, parent } of iso31662) {
    if (parent !== 'US' && parent !== 'CA') continue;
    const short = code.slice(3);
    byName.set(`${parent}:${short}`, short);
    byName.set(`${parent}:${name.toUpperCase()}`, short);
    if (parent === 'CA') caNames.set(name.toUpperCase(), short);
  }
  for (const [name, code] of Object.entries(stateCodes)) byName.set(`US:${name}`, code);
  // The dataset names a few areas by county; only those that are a province's name (or "<name> Territory") count.
  const caByLetter = new Map<string, Set<string>>();
  for (const entry of allPostalPlaces()) {
    if (entry.country !== 'Canada') continue;
    const name = entry.state.toUpperCase().replace(/ TERRITORY$/, '');
    const province = [...caNames].find(([iso]) => iso === name || iso.startsWith(`${name} `))?.[1];
    if (!province) continue;
    const letter = entry.zip.charAt(0);
    if (!caByLetter.has(letter)) caByLetter.set(letter, new Set());
    caByLetter.get(letter)!.add(province);
  }
  built = { byName, caByLetter };
  return built;
}

function stateCode(country: 'US' | 'CA', value: string): string | undefined {
  return subdivisions().byName.get(`${country}:${value.toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ').trim()}`);
}

/** Equal ignoring ASCII case, without allocating (the common case of a city spelled as the dataset spells it). */
function sameAsciiCase(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y && (x | 0x20) !== (y | 0x20)) return false;
    if (x !== y && ((x | 0x20) < 0x61 || (x | 0x20) > 0x7a)) return false;
  }
  return true;
}

/**
 * Whether the postal code's country is one the dataset covers, judged from the given country only: an address in
 * another country (a 5-digit code is also German or French) is not checked at all.
 */
export function checkedCountry(country: string | undefined): boolean {
  if (country === undefined || country === '' || country === 'US' || country === 'CA') return true;
  return COUNTRY_NAMES[normalCountry(country)] !== undefined;
}

/**
 * True when validateAddress would find nothing to say about an address whose postal code is already normalised
 * (12345, 12345-6789 or A1A 1A1, as the package schemas store it) and whose fields are trimmed, as they are when
 * it is spelled as the dataset spells it; it allocates nothing then (it runs for every package accepted). False
 * means "maybe not": the caller asks validateAddress for the messages.
 */
export function addressAgrees(input: AddressInput): boolean {
  const { postalCode, city, state, country } = input;
  const first = postalCode.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) {
    if (country && country !== 'US') return false;
    if (postalCode.length !== 5 && postalCode.length !== 10) return false;
    const place = lookup(postalCode.length === 5 ? postalCode : postalCode.slice(0, 5));
    if (!place) return false;
    if (state && !(state.length === 2 && sameAsciiCase(state, place.state))) return false;
    return !city || sameAsciiCase(city, place.city);
  }
  if (postalCode.length !== 7 || postalCode.charCodeAt(3) !== 0x20) return false;
  if (country && country !== 'CA') return false;
  const provinces = subdivisions().caByLetter.get(postalCode.charAt(0));
  if (!provinces) return false;
  return !state || (state.length === 2 && provinces.has(state));
}

export function validateAddress(input: AddressInput): AddressCheck {
  const messages: AddressMessage[] = [];
  const raw = input.postalCode.trim().toUpperCase();
  const us = US_ZIP.exec(raw);
  const ca = us ? null : CA_POSTAL.exec(raw);
  const country = us ? 'US' : ca ? 'CA' : null;
  if (!country) {
    return {
      valid: false,
      country: null,
      messages: [
        { path: 'postal_code', message: 'is neither a US ZIP (12345 or 12345-6789) nor a Canadian postal code (A1A 1A1)' },
      ],
      suggestion: null,
    };
  }
  const postalCode = us ? (us[2] ? `${us[1]}-${us[2]}` : us[1]!) : `${ca![1]} ${ca![2]}`;

  const givenCountry = input.country?.trim() ? normalCountry(input.country) : undefined;
  if (givenCountry !== undefined && COUNTRY_NAMES[givenCountry] !== country) {
    messages.push({
      path: 'country',
      message: `is "${input.country!.trim()}", but ${postalCode} is a ${country === 'US' ? 'US ZIP' : 'Canadian postal code'}`,
    });
  }

  let suggestion: AddressCheck['suggestion'] = null;
  if (country === 'US') {
    const place = lookup(us![1]!);
    if (!place) {
      messages.push({ path: 'postal_code', message: `ZIP ${us![1]} is not in use` });
    } else {
      suggestion = { city: place.city, state: place.state, postal_code: postalCode, country };
      const state = input.state?.trim();
      if (state && stateCode('US', state) !== place.state) {
        messages.push({ path: 'state', message: `is "${state}", but ZIP ${us![1]} is in ${place.state}` });
      }
      const city = input.city?.trim();
      if (city && normalCity(city) !== normalCity(place.city)) {
        messages.push({ path: 'city', message: `is "${city}", but ZIP ${us![1]} is ${place.city}, ${place.state}` });
      }
    }
  } else {
    const provinces = subdivisions().caByLetter.get(ca![1]!.charAt(0));
    if (!provinces) {
      messages.push({ path: 'postal_code', message: `${postalCode} begins with a letter no Canadian postal code uses` });
    } else {
      // Certain only where the first letter names one province (X is both Northwest Territories and Nunavut).
      const only = provinces.size === 1 ? [...provinces][0]! : undefined;
      if (only) suggestion = { city: null, state: only, postal_code: postalCode, country };
      const state = input.state?.trim();
      const given = state ? stateCode('CA', state) : undefined;
      if (state && (!given || !provinces.has(given))) {
        messages.push({
          path: 'state',
          message: `is "${state}", but ${postalCode} is in ${[...provinces].sort().join(' or ')}`,
        });
      }
    }
  }
  const differs =
    suggestion !== null &&
    (messages.length > 0 || postalCode !== input.postalCode.trim() || (givenCountry !== undefined && givenCountry !== country));
  return { valid: messages.length === 0, country, messages, suggestion: differs ? suggestion : null };
}
