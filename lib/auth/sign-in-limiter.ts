import 'server-only';
import { env, type Env } from '@/lib/env';
import { addressKey } from '@/lib/net/address-key';
import { consume, emailKey, limiters, rateLimited, waitInWords } from './limiters';

// Failed sign-ins, counted in PostgreSQL so every instance agrees (docs/decisions/rate-limiting.md). Per (e-mail, address)
// and per address they refuse (429, right password or not); per e-mail they only slow down, so a stranger can slow a
// user's sign-in but never lock it. Counted before the password is checked, so parallel guesses cannot all slip past.

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

export function slowdownMs(
  failures: number,
  settings: Pick<Env, 'SIGN_IN_SLOWDOWN_AFTER' | 'SIGN_IN_SLOWDOWN_MAX_MS'> = env(),
): number {
  const over = failures - settings.SIGN_IN_SLOWDOWN_AFTER;
  if (over < 0) return 0;
  return Math.min(settings.SIGN_IN_SLOWDOWN_MAX_MS, 250 * (over + 1));
}

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
