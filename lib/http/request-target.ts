// Nothing for a URL parser to normalise: no dot segments, percent-escapes, backslashes or doubled slashes.
const PLAIN_PATH = /^\/(?!\/)(?:[A-Za-z0-9_~-]|\.(?![./]|$)|\/(?![./]|$))*$/;

// A plain path (every API call) skips the URL parser, which is costly per request; anything else is parsed as Next would.
export function splitTarget(target: string): { pathname: string; search: string } {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(path) && !target.includes('#', q))
    return { pathname: path, search: q < 0 || q === target.length - 1 ? '' : target.slice(q) };
  if (!URL.canParse(target, 'http://localhost')) return { pathname: path, search: '' };
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, search: url.search };
}

// Fastify answers a path it cannot percent-decode with a bare 400 before any route is known; `%00` decodes but is no id
// (path-params.ts) and no static segment, so the request reaches its route's 404 with that route's headers.
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
