// Cookie settings shared by the session cookie and the portal's "last used environment" cookie. No
// server-only imports: proxy.ts uses it too.
import { processSettings } from '../env';

/** Secure cookies in production, unless COOKIE_SECURE=false (the e2e suite runs `next start` over http). */
export function secureCookies(): boolean {
  const { COOKIE_SECURE, NODE_ENV } = processSettings();
  return COOKIE_SECURE ?? NODE_ENV === 'production';
}
