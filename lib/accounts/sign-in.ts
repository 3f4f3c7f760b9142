import 'server-only';
import { verifyPassword } from '@/lib/auth/password';
import { admitSignIn } from '@/lib/auth/sign-in-limiter';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { TSignInRequest } from '@/lib/schemas/portal';

/**
 * Checks e-mail and password under the sign-in limits (lib/auth/sign-in-limiter.ts); returns the
 * user id or throws 401/429. `address` is the client's (lib/http/client-address.ts).
 */
export async function verifySignIn(options: TSignInRequest & { address: string }): Promise<{ userId: string }> {
  const attempt = await admitSignIn({ email: options.email, address: options.address });
  const user = await db.user.findUnique({ where: { email: options.email }, select: { id: true, passwordHash: true } });
  const ok = await verifyPassword({ hash: user?.passwordHash ?? null, password: options.password });
  await attempt.settle(Boolean(user && ok));
  if (!user || !ok) throw new AppError('unauthorized', 'Wrong e-mail or password.');
  return { userId: user.id };
}
