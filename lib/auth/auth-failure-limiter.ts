import { addressKey } from '@/lib/net/address-key';
import { consume, limiters, rateLimited } from './limiters';

// Guessing tokens from one address: after API_AUTH_FAILURES_PER_MINUTE failed authentications
// within a minute, counted in PostgreSQL across every instance, that address's failures are answered
// 429 until the minute is over. A valid token is never refused here: behind a shared NAT one
// misconfigured job would otherwise stop every shipper's production on that address. A blocked
// address's failures read the in-memory block and cost no query (docs/decisions/rate-limiting.md).

const message = (s: number) => `Too many failed authentications from this address; retry after ${s} s.`;

/** Counts a failed authentication; throws the 429 when the address is blocked or this one went past the limit. */
export async function recordAuthFailure(address: string | undefined): Promise<void> {
  if (!address) return;
  const limiter = limiters().authFailures;
  const blockedMs = limiter.getInMemoryBlockMsBeforeExpire(limiter.getKey(addressKey(address)));
  if (blockedMs > 0) throw rateLimited(message, blockedMs);
  const refused = await consume(limiters().authFailures, addressKey(address));
  if (refused) throw rateLimited(message, refused.msBeforeNext);
}
