import 'server-only';
import { env, type Env } from '@/lib/env';
import { addressKey } from '@/lib/net/address-key';
import { consume, emailKey, limiters, rateLimited, waitInWords } from './limiters';

// Failed sign-ins, counted in PostgreSQL so that every instance agrees (docs/decisions/rate-limiting.md):
//  - per (e-mail, address): SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS per window, then that address
//    is refused for that e-mail (429), right password or not;
//  - per address: SIGN_IN_FAILURES_PER_ADDRESS per window, whatever the e-mails;
//  - per e-mail, from anywhere: never refused, only slowed down. Past SIGN_IN_SLOWDOWN_AFTER failures
//    in an hour every attempt on it waits a little longer (up to SIGN_IN_SLOWDOWN_MAX_MS), so a
//    stranger can slow a user's sign-in by seconds but never lock it: from an address that has not
//    been failing, the right password gets in.
// Attempts are counted before the password is checked, so parallel guesses cannot all slip past
// the limit; a success gives its point back and forgets its (e-mail, address) failures.

const message = (s: number) => `Too many failed sign-in attempts. Try again in ${waitInWords(s)}.`;

export interface SignInAttempt {
  email: string;
  address: string;
}

function keys(attempt: SignInAttempt) {
  const address = addressKey(attempt.address);
  const email = emailKey(attempt.email);
  return { pair: `${email}|${address}`, address, email };
}

/** The wait an attempt on an e-mail with this many recent failures is given, in ms. */
export function slowdownMs(
  failures: number,
  settings: Pick<Env, 'SIGN_IN_SLOWDOWN_AFTER' | 'SIGN_IN_SLOWDOWN_MAX_MS'> = env(),
): number {
  const over = failures - settings.SIGN_IN_SLOWDOWN_AFTER;
  if (over < 0) return 0;
  return Math.min(settings.SIGN_IN_SLOWDOWN_MAX_MS, 250 * (over + 1));
}

/**
 * Admits one attempt: throws the 429 when its address is over a limit (for this e-mail or at all),
 * else waits out the e-mail's slowdown. Call `settle` with the outcome once the password is checked.
 */
export async function admitSignIn(attempt: SignInAttempt): Promise<{ settle(ok: boolean): Promise<void> }> {
  const { signInPair, signInAddress, signInEmail } = limiters();
  const key = keys(attempt);
  const [pair, address] = await Promise.all([consume(signInPair, key.pair), consume(signInAddress, key.address)]);
  if (pair || address) {
    // A refused attempt checks no password: give back the point the other limiter took for it.
    await Promise.all([!pair && signInPair.reward(key.pair), !address && signInAddress.reward(key.address)]);
    throw rateLimited(message, Math.max(pair?.msBeforeNext ?? 0, address?.msBeforeNext ?? 0));
  }
  const failures = (await signInEmail.get(key.email))?.consumedPoints ?? 0;
  const wait = slowdownMs(failures);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return {
    settle: async (ok) => {
      if (ok) await Promise.all([signInPair.delete(key.pair), signInAddress.reward(key.address)]);
      else await signInEmail.penalty(key.email);
    },
  };
}
