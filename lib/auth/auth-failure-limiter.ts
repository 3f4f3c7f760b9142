import { addressKey } from '@/lib/net/address-key';
import { consume, limiters, rateLimited } from './limiters';

// Guessing tokens from one address: after API_AUTH_FAILURES_PER_MINUTE failed authentications
// within a minute, counted in PostgreSQL across every instance, that address is refused with 429
// until the minute is over, valid token or not. Only failures touch the database: the check before
// authenticating reads the in-memory block the limiter sets once the shared count reaches the
// limit, so a request with a good token costs nothing here (docs/decisions/rate-limiting.md).

const message = (s: number) => `Too many failed authentications from this address; retry after ${s} s.`;

export function assertAddressNotBlocked(address: string | undefined): void {
  if (!address) return;
  const limiter = limiters().authFailures;
  const ms = limiter.getInMemoryBlockMsBeforeExpire(limiter.getKey(addressKey(address)));
  if (ms > 0) throw rateLimited(message, ms);
}

/** Counts a failed authentication; throws the 429 when this one went past the limit. */
export async function recordAuthFailure(address: string | undefined): Promise<void> {
  if (!address) return;
  const refused = await consume(limiters().authFailures, addressKey(address));
  if (refused) throw rateLimited(message, refused.msBeforeNext);
}
