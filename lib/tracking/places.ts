import { lookupPostalCode } from '@/lib/places/postal-codes';
import { airport } from '@/lib/rating/locations';

// City-level places for the public page: a scan's location is an IATA airport code or a US / Canadian postal code
// (lib/schemas/lifecycle.ts ZScan), shown as the city it is in, never as the code of a street or a block.

const US_ZIP = /^(\d{5})(?:-\d{4})?$/;
const CANADIAN = /^([A-Z]\d[A-Z]) ?\d[A-Z]\d$/;
const IATA = /^[A-Z]{3}$/;

// The dataset names a Canadian forward sortation area by its neighbourhoods in brackets: the city is before them.
const cityOf = (name: string) => name.replace(/\s*\(.*$/, '').trim();

export function publicPlace(location: string | null): string | null {
  if (!location) return null;
  const code = location.trim().toUpperCase();
  if (IATA.test(code)) {
    const found = airport(code);
    return found ? [found.city || found.name, found.country].filter(Boolean).join(', ') : code;
  }
  const zip = US_ZIP.exec(code);
  if (zip?.[1]) {
    const found = lookupPostalCode(zip[1]);
    return found && found.country === 'US' ? `${found.city}, ${found.state}` : null;
  }
  const canadian = CANADIAN.exec(code);
  if (canadian?.[1]) {
    const found = lookupPostalCode(canadian[1]);
    return found ? `${cityOf(found.city)}, ${found.state}` : null;
  }
  return null;
}
