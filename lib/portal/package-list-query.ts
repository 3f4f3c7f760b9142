import { assertFilterAlphabets, decodedPairs, queryObject } from '@/lib/api/query';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';

// A download link carries its environment in the query (environment.ts reads it): left out here, with empty fields.
export function portalQuery(url: string, known?: readonly string[]): Record<string, string> {
  const out = queryObject(decodedPairs(new URL(url).search), { known, ignore: ENVIRONMENT_QUERY, dropEmpty: true });
  assertFilterAlphabets(out);
  return out;
}
