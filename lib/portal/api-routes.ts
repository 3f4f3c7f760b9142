import { AppError } from '@/lib/errors/app-error';
import { PORTAL_API_ROUTES } from './generated/api-routes';

// Next's own 405 has no body: the proxy answers a method a route lacks with the envelope and Allow, from this list.

// A static segment wins over a parameter, as Next routes them: /invoices/close before /invoices/:id.
const ROUTES = PORTAL_API_ROUTES.map(([pattern, methods]) => ({
  segments: pattern.split('/').slice(1),
  // Next answers HEAD as GET and OPTIONS itself.
  allow: [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'],
})).sort((a, b) => parameters(a.segments) - parameters(b.segments));

function parameters(segments: readonly string[]): number {
  return segments.filter((s) => s.startsWith(':')).length;
}

export function portalApiMethods(pathname: string): readonly string[] | undefined {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  const route = ROUTES.find(
    (r) => r.segments.length === segments.length && r.segments.every((s, i) => s.startsWith(':') || s === segments[i]),
  );
  return route?.allow;
}

export function portalApiMethodRefusal(method: string, pathname: string): AppError | undefined {
  const allow = portalApiMethods(pathname);
  if (!allow || allow.includes(method)) return undefined;
  const allowed = allow.join(', ');
  return new AppError('method_not_allowed', `${method} is not allowed here; use ${allowed}.`, { allowed });
}
