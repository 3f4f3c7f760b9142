// The API's CORS settings, in one place: @fastify/cors applies them to every API answer
// (lib/http/api-app.ts); the few answers no Fastify route gives — a request Node's parser refused
// (client-error.ts), the public OpenAPI document (a Next route) — carry the same headers from
// corsHeaders() below. Any origin, no credentials: tokens travel in the Authorization header.
export const CORS = {
  origin: '*',
  allowedHeaders: 'Authorization, Content-Type, X-Request-Id, Idempotency-Key',
  exposedHeaders:
    'X-Request-Id, Retry-After, WWW-Authenticate, Idempotent-Replayed, RateLimit, RateLimit-Policy, Deprecation, Sunset, Link',
  maxAge: 86_400,
} as const;

/** The CORS headers of an answer given outside Fastify, for a resource that allows `allow`. */
export function corsHeaders(allow: string): Record<string, string> {
  return {
    'access-control-allow-origin': CORS.origin,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': CORS.allowedHeaders,
    'access-control-expose-headers': CORS.exposedHeaders,
    'access-control-max-age': String(CORS.maxAge),
  };
}
