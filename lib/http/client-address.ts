import { env } from '@/lib/env';

/**
 * The client's address, for per-address limits. With TRUST_PROXY, the first X-Forwarded-For entry
 * (set by our proxy). Otherwise the socket's address. Next route handlers have no socket: there the
 * first entry is what `next start` sets from the socket when the client sent none, so serve those
 * behind a proxy (the production server, scripts/server.ts, reads the socket).
 */
export function clientAddress(forwardedFor: string | null, socketAddress: string | undefined): string | undefined {
  const first = forwardedFor?.split(',')[0]?.trim() || undefined;
  if (env().TRUST_PROXY) return first ?? socketAddress;
  return socketAddress ?? first;
}
