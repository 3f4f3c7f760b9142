import { addressKey } from '@/lib/net/address-key';
import { consume, limiters, rateLimited } from './limiters';

// A valid token is never refused here: behind a shared NAT one misconfigured job would otherwise stop every shipper on
// that address. A blocked address's failures read the in-memory block and cost no query.

const message = (s: number) => `Too many failed authentications from this address; retry after ${s} s.`;

export async function recordAuthFailure(address: string | undefined): Promise<void> {
  if (!address) return;
  const limiter = limiters().authFailures;
  const blockedMs = limiter.getInMemoryBlockMsBeforeExpire(limiter.getKey(addressKey(address)));
  if (blockedMs > 0) throw rateLimited(message, blockedMs);
  const refused = await consume(limiters().authFailures, addressKey(address));
  if (refused) throw rateLimited(message, refused.msBeforeNext);
}
