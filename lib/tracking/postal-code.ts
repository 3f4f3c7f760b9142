// A recipient's postal code against the one the shipper sent: spaces, hyphens and case aside, and a US ZIP+4 as its
// first five digits (a recipient types 90210 for 90210-1234, or the other way round).

const normal = (value: string) => value.toUpperCase().replace(/[\s-]/g, '');
const US = /^\d{5}(?:\d{4})?$/;

export function samePostalCode(stored: string | null, typed: string): boolean {
  if (stored === null) return false;
  const a = normal(stored);
  const b = normal(typed);
  if (a === '' || b === '') return false;
  if (US.test(a) && US.test(b)) return a.slice(0, 5) === b.slice(0, 5);
  return a === b;
}

/** What a postal code can be at all (letters, digits, a space or hyphen; 3 to 10 characters once they are gone). */
export function plausiblePostalCode(typed: string): boolean {
  return typed.length <= 16 && /^[A-Za-z0-9 -]+$/.test(typed) && /^[A-Z0-9]{3,10}$/.test(normal(typed));
}
