import { API_SECURITY_HEADERS } from './security-headers';

// Any origin and no credentials: tokens travel in the Authorization header. corsHeaders() serves answers given outside Fastify.
export const CORS = {
  origin: '*',
  allowedHeaders: 'Authorization, Content-Type, X-Request-Id, Idempotency-Key',
  exposedHeaders:
    'X-Request-Id, Retry-After, WWW-Authenticate, Idempotent-Replayed, RateLimit, RateLimit-Policy, Deprecation, Sunset, Link',
  maxAge: 86_400,
} as const;

/** What every API answer carries, ours or Fastify's: the CORS headers and the security headers. */
export function apiHeaders(allow: string): Record<string, string> {
  return { ...corsHeaders(allow), ...API_SECURITY_HEADERS };
}

export function corsHeaders(allow: string): Record<string, string> {
  return {
    'access-control-allow-origin': CORS.origin,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': CORS.allowedHeaders,
    'access-control-expose-headers': CORS.exposedHeaders,
    'access-control-max-age': String(CORS.maxAge),
  };
}
