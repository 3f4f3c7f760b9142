import { assertFilterAlphabets, decodedPairs, queryObject } from '@/lib/api/query';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';

// The query string of a portal-api download link (the package export, a plain link that carries the environment
// in its query), read by the API's own reader (lib/api/query.ts): every parameter once, percent escapes that
// decode, filters in their alphabets, the download link's `environment` left out (lib/portal/environment.ts reads
// it) and empty form fields dropped.

/** `known`: the route's parameters (GET /packages's, PACKAGE_LIST_PARAMETERS); any other is a 422 naming it. */
export function portalQuery(url: string, known?: readonly string[]): Record<string, string> {
  const out = queryObject(decodedPairs(new URL(url).search), { known, ignore: ENVIRONMENT_QUERY, dropEmpty: true });
  assertFilterAlphabets(out);
  return out;
}
