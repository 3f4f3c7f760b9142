import 'server-only';
import { consume, limiters, rateLimited, waitInWords } from '@/lib/auth/limiters';
import { addressKey } from '@/lib/net/address-key';

// Counted before anything is looked up, found or not: a 429 must not tell which numbers exist.
export async function admitTrackingLookup(address: string): Promise<void> {
  const refused = await consume(limiters().trackingAddress, addressKey(address));
  if (refused)
    throw rateLimited(
      (s) => `Too many tracking lookups from your network. Try again in ${waitInWords(s)}.`,
      refused.msBeforeNext,
    );
}
