// The portal's environment lives in its URLs: every portal page is /test/… or /live/…, so a page that
// shows Test only ever reads and writes test data, whatever another tab does. No server-only imports:
// pages, client components, the proxy and route handlers all use these.

export const ENVIRONMENTS = ['test', 'live'] as const;
export type PortalEnvironment = (typeof ENVIRONMENTS)[number];

/** Sent by lib/portal/fetcher.ts on every portal-api request; lib/portal/route.ts answers 400 without it. */
export const ENVIRONMENT_HEADER = 'x-carrier-environment';
/**
 * Sent by lib/portal/fetcher.ts with the id of the account the page shows: a tab left on one account after another tab
 * switched the session to another answers 409 `account_changed` instead of reading or writing the new one.
 */
export const ACCOUNT_HEADER = 'x-carrier-account';
/** For GET links that cannot send a header (the CSV download): `?environment=test`. */
export const ENVIRONMENT_QUERY = 'environment';
/** The environment last used in this browser: only where a bare URL (/dashboard, an old bookmark) goes. */
export const ENV_COOKIE = 'carrier_env';

/** The portal's sections, each served under /test/… and /live/…; a bare /<section>/… redirects. */
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

/** '/manifests/new' in test → '/test/manifests/new'. `path` is a portal path without its environment. */
export function portalPath(environment: PortalEnvironment, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`portalPath needs a path starting with one "/": ${path}`);
  return path === '/' ? `/${environment}` : `/${environment}${path}`;
}

/** The environment a pathname is in ('/live/manifests' → 'live'), or null for any other path. */
export function environmentOfPath(pathname: string): PortalEnvironment | null {
  const first = pathname.split('/')[1];
  return isEnvironment(first) ? first : null;
}

/** For a bare portal URL ('/manifests/new'), the same page in `environment`; null when `pathname` is not one. */
export function bareToEnvironmentPath(pathname: string, environment: PortalEnvironment): string | null {
  const first = pathname.split('/')[1];
  return first !== undefined && (PORTAL_SECTIONS as readonly string[]).includes(first) ? portalPath(environment, pathname) : null;
}

// Pages whose query string is a filter that means the same thing in the other environment.
const QUERY_KEPT = new Set(['/manifests', '/packages']);
// Detail pages: the record belongs to one environment, so the switch goes to its list instead.
const DETAIL = /^\/(manifests|webhooks|packages|logs)\/(?!new$)[^/]+$/;

/**
 * Where the header's switch goes: the same page in `target`. A detail page (/manifests/MAN-…,
 * /webhooks/we_…, /packages/1Z…, /logs/req_…) goes to its list, since the record exists in one environment only; list filters stay.
 */
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
