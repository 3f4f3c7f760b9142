export function corsHeaders(allow: string): Record<string, string> {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': allow,
    'access-control-allow-headers': 'Authorization, Content-Type, X-Request-Id',
    'access-control-expose-headers': 'X-Request-Id, Retry-After, WWW-Authenticate',
    'access-control-max-age': '86400',
  };
}
