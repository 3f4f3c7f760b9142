// Ids in a path (webhook endpoints, deliveries, manifests, tokens) are short URL-safe ASCII: every id
// this service hands out (lib/ids.ts, UUIDs, att_<n>) is letters, digits, `-` and `_`, under 80
// characters. A segment that cannot be one — a malformed escape, NUL or another control character,
// a lone surrogate, RTL or zero-width characters, thousands of characters — names nothing, so it is
// answered as "not found" before any query: PostgreSQL refuses NUL in text, and nothing should
// reach it that it will refuse.

/** Longer than any id we issue, short enough that no lookup or log line grows with it. */
export const MAX_PATH_PARAM_LENGTH = 128;

/**
 * The characters an id can have: URL-unreserved ASCII (RFC 3986), so ids never need escaping, and `:`, which a
 * client's own request id may hold (lib/http/api-steps.ts REQUEST_ID: GET /requests/{id} must find it).
 */
const ID = new RegExp(`^[A-Za-z0-9._~:-]{1,${MAX_PATH_PARAM_LENGTH}}$`);

/** True when a decoded path parameter could be an id we issue. */
export function isPlausiblePathParam(value: string): boolean {
  return ID.test(value);
}

/** True when some `%` escape of the path cannot be decoded (`%ZZ`, a cut-off `%E0%A4`, a bare `%`). */
export function hasMalformedEscape(pathname: string): boolean {
  if (!pathname.includes('%')) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

// Next's router throws on a path it cannot decode and answers a bare 500 before any handler of ours
// runs. proxy.ts sends such an API path to this static route instead, the path as sent in this
// header; lib/http/next-adapter.ts hands that path to the API app, which answers it as the production
// server does (404, the route's CORS headers, a request id).
export const MALFORMED_PATH_ROUTE = '/api/1.1/malformed-path';
export const MALFORMED_PATH_HEADER = 'x-carrier-malformed-path';
