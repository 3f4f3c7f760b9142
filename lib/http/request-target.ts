// The path and query of a request target, as the API's router is given them.

/** A plain path: no dot segments, percent-escapes, backslashes or doubled slashes for a URL parser to normalise. */
const PLAIN_PATH = /^\/(?!\/)(?:[A-Za-z0-9_~-]|\.(?![./]|$)|\/(?![./]|$))*$/;

/**
 * Path and query of a request target. A plain path (every API call there is) is taken as it is;
 * anything else goes through the WHATWG URL parser, so that `/api/1.1/wf/./rate` or `%2F` mean
 * here what they mean to Next. Parsing a URL per request cost ~15 % of the rate operation's
 * throughput. A target that is no URL (`//x`) comes back as it is, which is no API path.
 */
export function splitTarget(target: string): { pathname: string; search: string } {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(path) && !target.includes('#', q))
    return { pathname: path, search: q < 0 || q === target.length - 1 ? '' : target.slice(q) };
  // `//` and the like are no URL at all (new URL throws): never an API path, so Next answers them.
  if (!URL.canParse(target, 'http://localhost')) return { pathname: path, search: '' };
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, search: url.search };
}

/**
 * The target the API's router is given: normalised as splitTarget does, trailing slashes dropped
 * (`/wf/rate/` is `/wf/rate`), and every segment that cannot be percent-decoded (`%ZZ`, a cut-off
 * `%E0%A4`, a bare `%`) replaced by `%00`. Fastify's router answers a path it cannot decode with
 * a bare 400 before any route is known; `%00` decodes, can be no id (lib/http/path-params.ts) and
 * no static segment, so the path reaches the route its shape names, which answers 404 with that
 * route's headers, or no route (404). Plain targets come back as they are, unallocated.
 */
export function routingTarget(target: string): string {
  const { pathname, search } = splitTarget(target);
  let path = pathname;
  if (path.includes('%')) path = path.split('/').map(decodableSegment).join('/');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  if (path === pathname && search.length + pathname.length === target.length) return target;
  return path + search;
}

function decodableSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    decodeURIComponent(segment);
    return segment;
  } catch {
    return '%00';
  }
}
