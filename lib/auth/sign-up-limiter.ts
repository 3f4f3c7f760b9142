import 'server-only';
import { addressKey } from '@/lib/net/address-key';
import { consume, limiters, rateLimited, waitInWords } from './limiters';

// Sign-ups per address: SIGN_UPS_PER_ADDRESS_PER_HOUR attempts (a known e-mail or a taken company counts
// alike), counted in PostgreSQL across instances (docs/decisions/rate-limiting.md). A sign-up sends mail, so it is
// also counted by lib/auth/mail-limiter.ts, per address and per e-mail.
export async function admitSignUp(address: string): Promise<void> {
  const refused = await consume(limiters().signUpAddress, addressKey(address));
  if (refused)
    throw rateLimited((s) => `Too many sign-ups from this address. Try again in ${waitInWords(s)}.`, refused.msBeforeNext);
}
