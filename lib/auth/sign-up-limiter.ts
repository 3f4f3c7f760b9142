import 'server-only';
import { addressKey } from '@/lib/net/address-key';
import { consume, limiters, rateLimited, waitInWords } from './limiters';

// A known e-mail or a taken company counts alike; a sign-up sends mail, so mail-limiter.ts counts it too.
export async function admitSignUp(address: string): Promise<void> {
  const refused = await consume(limiters().signUpAddress, addressKey(address));
  if (refused)
    throw rateLimited((s) => `Too many sign-ups from this address. Try again in ${waitInWords(s)}.`, refused.msBeforeNext);
}
