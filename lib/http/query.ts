import { validationError } from '@/lib/errors/app-error';

// The one reader of a list's query string, the API's operations' (lib/http/operations/lifecycle.ts) and the portal's
// lifecycle routes' (lib/portal-lifecycle/query.ts): every parameter at most once, so a filter never silently takes
// the first or the last of two values.

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
    if (known && !known.includes(key)) throw validationError([{ path: key.slice(0, 100), message: `is not a known parameter; use ${known.join(', ')}` }]);
    if (Object.hasOwn(out, key)) throw validationError([{ path: key, message: 'is given more than once' }]);
    if (value !== '' || !dropEmpty) out[key] = value;
  }
  return out;
}
