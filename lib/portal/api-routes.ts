import { AppError } from '@/lib/errors/app-error';
import { PORTAL_API_ROUTES } from './generated/api-routes';

// The portal API's routes and their methods (generated from app/portal-api), so that the proxy answers a method a
// route lacks with the 405 envelope and Allow; Next's own 405 has no body. A path no route has is answered by the
// catch-all route (app/portal-api/[...unknown]) with the 404 envelope.

const ROUTES = PORTAL_API_ROUTES.map(([pattern, methods]) => ({
  segments: pattern.split('/').slice(1),
  // Next answers HEAD as GET and OPTIONS itself.
  allow: [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'],
}));

/** The methods the portal API route at `pathname` answers, or undefined when no route is there. */
export function portalApiMethods(pathname: string): readonly string[] | undefined {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  const route = ROUTES.find(
    (r) => r.segments.length === segments.length && r.segments.every((s, i) => s.startsWith(':') || s === segments[i]),
  );
  return route?.allow;
}

/** The 405 for a method the route at `pathname` does not answer; undefined when it does, or when no route is there. */
export function portalApiMethodRefusal(method: string, pathname: string): AppError | undefined {
  const allow = portalApiMethods(pathname);
  if (!allow || allow.includes(method)) return undefined;
  const allowed = allow.join(', ');
  return new AppError('method_not_allowed', `${method} is not allowed here; use ${allowed}.`, { allowed });
}
