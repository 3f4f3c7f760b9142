// No server-only imports: proxy.ts uses it too.
import { processSettings } from '../env';

// COOKIE_SECURE=false because the e2e suite runs `next start` over http.
export function secureCookies(): boolean {
  const { COOKIE_SECURE, NODE_ENV } = processSettings();
  return COOKIE_SECURE ?? NODE_ENV === 'production';
}
