import { validationError } from '@/lib/errors/app-error';

// The one reader of a list's query string: every parameter at most once (never silently the first or last of two),
// every percent escape decoded or a 422 naming it (URLSearchParams would keep a `%ZZ` that reaches a filter).

export interface QueryObjectOptions {
  /** The parameters there may be; any other is a 422 naming it (the API). Without it, the schema decides. */
  known?: readonly string[];
  /** A parameter that is not this reader's to read (the portal's `environment`): passed over. */
  ignore?: string;
  /** An empty value is no value (the portal's forms send every field): not kept, and no first of two. */
  dropEmpty?: boolean;
}

/** Decoded (name, value) pairs as an object; a parameter given twice is a 422 naming it. */
export function queryObject(pairs: Iterable<[string, string]>, options: QueryObjectOptions = {}): Record<string, string> {
  const { known, ignore, dropEmpty = false } = options;
  const out: Record<string, string> = {};
  for (const [key, value] of pairs) {
    if (key === ignore) continue;
    if (known && !known.includes(key))
      throw validationError([{ path: key.slice(0, 100), message: `is not a known parameter; use ${known.join(', ')}` }]);
    if (Object.hasOwn(out, key)) throw validationError([{ path: key, message: 'is given more than once' }]);
    if (value !== '' || !dropEmpty) out[key] = value;
  }
  return out;
}

/** A query string's (name, value) pairs, each percent escape decoded or a 422 naming its parameter. */
export function* decodedPairs(search: string): Generator<[string, string]> {
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

/** A character none of a filter's values can hold (a `%` that did not decode) is a mistake to name, not a search. */
const ALPHABETS: Record<string, { pattern: RegExp; message: string }> = {
  tracking_number: { pattern: /^[A-Za-z0-9._-]*$/, message: 'a tracking number holds letters, digits, "-", "_" and "." only' },
  manifest_id: { pattern: /^[A-Za-z0-9._~-]*$/, message: 'a ManifestID holds letters, digits, "-" and "_" only' },
  to_postal_code: { pattern: /^[A-Za-z0-9 -]*$/, message: 'a postal code holds letters, digits, spaces and "-" only' },
};

/** A 422 naming each filter whose value holds a character its alphabet cannot (control characters and bad Unicode are the schema's text rule's to name). */
export function assertFilterAlphabets(query: Record<string, string>): void {
  const wrong = Object.entries(ALPHABETS).flatMap(([key, rule]) => {
    const value = query[key];
    return value !== undefined && !/[\u0000-\u001f\u007f]/.test(value) && value.isWellFormed() && !rule.pattern.test(value)
      ? [{ path: key, message: rule.message }]
      : [];
  });
  if (wrong.length > 0) throw validationError(wrong);
}
