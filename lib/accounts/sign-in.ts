import 'server-only';
import { verifyPassword } from '@/lib/auth/password';
import { clearSignInFailures, recordSignInFailure, signInRetryAfter } from '@/lib/auth/sign-in-limiter';
import { db } from '@/lib/db';
import { ApiError } from '@/lib/http/errors';
import type { TSignInRequest } from '@/lib/portal/schemas';

/** Checks e-mail and password under the sign-in rate limit; returns the user id or throws 401/429. */
export async function verifySignIn(options: TSignInRequest & { ip: string }): Promise<{ userId: string }> {
  const wait = signInRetryAfter(options);
  if (wait > 0) {
    throw new ApiError('rate_limited', `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`, {
      headers: { 'retry-after': String(wait) },
    });
  }
  const user = await db.user.findUnique({ where: { email: options.email }, select: { id: true, passwordHash: true } });
  const ok = await verifyPassword({ hash: user?.passwordHash ?? null, password: options.password });
  if (!user || !ok) {
    recordSignInFailure(options);
    throw new ApiError('unauthorized', 'Wrong e-mail or password.');
  }
  clearSignInFailures(options);
  return { userId: user.id };
}
