import 'server-only';
import { recordAudit, recordFailedSignIn } from '@/lib/audit/record-audit';
import { verifyPassword } from '@/lib/auth/password';
import { createSession, type SessionClient } from '@/lib/auth/session';
import { admitSignIn } from '@/lib/auth/sign-in-limiter';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { TSignInRequest } from '@/lib/schemas/portal';

// An unknown e-mail runs the same one statement that records a wrong password (and records nothing), so the answer's
// time does not tell the two apart.
export async function verifySignIn(
  options: TSignInRequest & { address: string; userAgent?: string | null },
): Promise<{ userId: string; email: string }> {
  const attempt = await admitSignIn({ email: options.email, address: options.address });
  const user = await db.user.findUnique({
    where: { email: options.email },
    select: { id: true, email: true, passwordHash: true },
  });
  const ok = await verifyPassword({ hash: user?.passwordHash ?? null, password: options.password });
  await attempt.settle(Boolean(user && ok));
  if (!user || !ok) {
    await recordFailedSignIn({ email: options.email, address: options.address, userAgent: options.userAgent ?? null });
    throw new AppError('unauthorized', 'Wrong e-mail or password.');
  }
  return { userId: user.id, email: user.email };
}

export async function signIn(options: TSignInRequest & { client: SessionClient }): Promise<void> {
  const { userId, email } = await verifySignIn({
    ...options,
    address: options.client.address,
    userAgent: options.client.userAgent,
  });
  const { accountId } = await createSession({ userId, client: options.client });
  await recordAudit(
    { actor: { kind: 'user', userId, email }, address: options.client.address, userAgent: options.client.userAgent },
    { accountId, action: 'auth.sign_in', target: { type: 'user', id: userId } },
  );
}
