// Cookie settings shared by the session cookie and the portal's "last used environment" cookie. No
// server-only imports: proxy.ts uses it too.

/** Secure cookies in production, unless COOKIE_SECURE=false (the e2e suite runs `next start` over http). */
export function secureCookies(): boolean {
  if (process.env.COOKIE_SECURE === 'false') return false;
  if (process.env.COOKIE_SECURE === 'true') return true;
  return process.env.NODE_ENV === 'production';
}
