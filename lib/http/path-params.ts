// A path segment that cannot be an id we issue (short URL-safe ASCII) is answered 404 before any query: PostgreSQL
// refuses NUL in text, and nothing should reach it that it would refuse.

export const MAX_PATH_PARAM_LENGTH = 128;

// `:` because a client's own request id (request-id.ts) may hold one, and GET /requests/{id} must find it.
const ID = new RegExp(`^[A-Za-z0-9._~:-]{1,${MAX_PATH_PARAM_LENGTH}}$`);

export function isPlausiblePathParam(value: string): boolean {
  return ID.test(value);
}

export function hasMalformedEscape(pathname: string): boolean {
  if (!pathname.includes('%')) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

// Next's router answers a path it cannot decode with a bare 500; proxy.ts sends such an API path here instead (the
// path in this header), and next-adapter.ts lets the API app answer it as production does.
export const MALFORMED_PATH_ROUTE = '/api/1.1/malformed-path';
export const MALFORMED_PATH_HEADER = 'x-carrier-malformed-path';
