// Every portal page is /test/… or /live/…, so a page that shows Test only ever reads and writes test data, whatever
// another tab does. Client-safe: pages, client components, the proxy and route handlers all use these.

export const ENVIRONMENTS = ['test', 'live'] as const;
export type PortalEnvironment = (typeof ENVIRONMENTS)[number];

export const ENVIRONMENT_HEADER = 'x-carrier-environment';
// A tab left on one account after another tab switched the session gets 409 `account_changed`, not the other's data.
export const ACCOUNT_HEADER = 'x-carrier-account';
// For GET links that cannot send a header (the CSV download).
export const ENVIRONMENT_QUERY = 'environment';
export const ENV_COOKIE = 'carrier_env';

export const PORTAL_SECTIONS = [
  'dashboard',
  'rates',
  'manifests',
  'packages',
  'webhooks',
  'logs',
  'tokens',
  'rate-cards',
  'settings',
  'account',
  'docs',
] as const;

export function isEnvironment(value: unknown): value is PortalEnvironment {
  return value === 'test' || value === 'live';
}

export function portalPath(environment: PortalEnvironment, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`portalPath needs a path starting with one "/": ${path}`);
  return path === '/' ? `/${environment}` : `/${environment}${path}`;
}

export function environmentOfPath(pathname: string): PortalEnvironment | null {
  const first = pathname.split('/')[1];
  return isEnvironment(first) ? first : null;
}

export function bareToEnvironmentPath(pathname: string, environment: PortalEnvironment): string | null {
  const first = pathname.split('/')[1];
  return first !== undefined && (PORTAL_SECTIONS as readonly string[]).includes(first) ? portalPath(environment, pathname) : null;
}

const QUERY_KEPT = new Set(['/manifests', '/packages']);
// A record belongs to one environment, so the switch goes from a detail page to its list.
const DETAIL = /^\/(manifests|webhooks|packages|logs)\/(?!new$)[^/]+$/;

export function switchEnvironmentHref(pathname: string, search: string, target: PortalEnvironment): string {
  const current = environmentOfPath(pathname);
  let rest = current ? pathname.slice(current.length + 1) || '/' : '/dashboard';
  const detail = DETAIL.exec(rest);
  if (detail) rest = `/${detail[1]}`;
  let query = !detail && QUERY_KEPT.has(rest) && search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  if (query) {
    // A page's place in one environment's list (the Packages page's keyset cursors) means nothing in the other.
    const params = new URLSearchParams(query);
    params.delete('cursor');
    params.delete('back');
    query = params.size ? `?${params}` : '';
  }
  return portalPath(target, rest) + query;
}
