import 'server-only';
import { addressKey } from '@/lib/net/address-key';
import { consume, limiters, rateLimited, waitInWords } from './limiters';

// Sign-ups per address: SIGN_UPS_PER_ADDRESS_PER_HOUR attempts (a taken e-mail or company counts,
// so the 409 cannot be used to probe which e-mails have accounts at any speed), counted in
// PostgreSQL across instances (docs/decisions/rate-limiting.md).
export async function admitSignUp(address: string): Promise<void> {
  const refused = await consume(limiters().signUpAddress, addressKey(address));
  if (refused) throw rateLimited((s) => `Too many sign-ups from this address. Try again in ${waitInWords(s)}.`, refused.msBeforeNext);
}
