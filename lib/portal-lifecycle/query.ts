import { validationError } from '@/lib/errors/app-error';
import { queryObject } from '@/lib/http/query';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';

// The query string of a portal-api lifecycle route, read by the API's own reader (lib/http/query.ts): every
// parameter once, percent escapes that decode (a `%ZZ` is a 422 naming its parameter, not text that reaches a
// filter), and the download link's `environment` left out (lib/portal/environment.ts reads it).

/**
 * Filters whose values have a known alphabet: a character none of them can hold (a `%` left of an escape
 * that did not decode, which Next hands on re-encoded) is a mistake to name, not a search that finds nothing.
 */
const ALPHABETS: Record<string, { pattern: RegExp; message: string }> = {
  tracking_number: { pattern: /^[A-Za-z0-9._-]*$/, message: 'a tracking number holds letters, digits, "-", "_" and "." only' },
  manifest_id: { pattern: /^[A-Za-z0-9._~-]*$/, message: 'a ManifestID holds letters, digits, "-" and "_" only' },
  to_postal_code: { pattern: /^[A-Za-z0-9 -]*$/, message: 'a postal code holds letters, digits, spaces and "-" only' },
};

/**
 * `known`: the route's parameters (GET /packages's, PACKAGE_LIST_PARAMETERS); any other is a 422 naming it, as the
 * API's lists answer, rather than the schema's unnamed "unrecognized key".
 */
export function portalQuery(url: string, known?: readonly string[]): Record<string, string> {
  const out = queryObject(decodedPairs(new URL(url).search), { known, ignore: ENVIRONMENT_QUERY, dropEmpty: true });
  const wrong = Object.entries(ALPHABETS).flatMap(([key, rule]) => {
    const value = out[key];
    // Control characters and bad Unicode are the text rule's to name (the schema's message).
    return value !== undefined && !/[\u0000-\u001f\u007f]/.test(value) && value.isWellFormed() && !rule.pattern.test(value)
      ? [{ path: key, message: rule.message }]
      : [];
  });
  if (wrong.length > 0) throw validationError(wrong);
  return out;
}

/** The query's (name, value) pairs, each percent escape decoded or a 422 naming its parameter (URLSearchParams keeps a bad one as text). */
function* decodedPairs(search: string): Generator<[string, string]> {
  const raw = search.replace(/^\?/, '');
  if (!raw) return;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const at = part.indexOf('=');
    const rawKey = at < 0 ? part : part.slice(0, at);
    const rawValue = at < 0 ? '' : part.slice(at + 1);
    const key = decode(rawKey, rawKey.slice(0, 40));
    yield [key, decode(rawValue, key)];
  }
}

function decode(text: string, name: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw validationError([{ path: name || '(query)', message: 'is not correctly percent-encoded' }]);
  }
}
