import 'server-only';
import { recordUserAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { admitMailRequest } from '@/lib/auth/mail-limiter';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import { admitSignIn } from '@/lib/auth/sign-in-limiter';
import { db } from '@/lib/db';
import { validationError } from '@/lib/errors/app-error';
import { passwordChangedMail } from '@/lib/mail/messages';
import { sendMailInBackground } from '@/lib/mail/send-mail';
import { appLink } from '@/lib/mail/settings';
import type { TChangePasswordRequest } from '@/lib/schemas/portal';
import { FORGOT_PATH } from './password-reset';

// A wrong current password counts as a failed sign-in, so a borrowed session cannot guess it faster than the sign-in
// form could. Every other session of the user ends.
export async function changePassword(
  options: TChangePasswordRequest & { userId: string; sessionId: string; address: string; origin: AuditOrigin },
): Promise<{ sessionsEnded: number }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: options.userId }, select: { email: true, passwordHash: true } });
  const attempt = await admitSignIn({ email: user.email, address: options.address });
  const ok = await verifyPassword({ hash: user.passwordHash, password: options.currentPassword });
  await attempt.settle(ok);
  if (!ok) {
    const message = 'is not your current password';
    throw validationError([{ path: 'currentPassword', message }]);
  }
  if (options.newPassword === options.currentPassword) {
    const message = 'must differ from the current password';
    throw validationError([{ path: 'newPassword', message }]);
  }
  await admitMailRequest({ email: user.email, address: options.address });
  const passwordHash = await hashPassword(options.newPassword);
  const now = new Date();
  const sessionsEnded = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: options.userId }, data: { passwordHash } });
    await tx.passwordReset.updateMany({ where: { userId: options.userId, usedAt: null }, data: { usedAt: now } });
    const ended = (await tx.session.deleteMany({ where: { userId: options.userId, id: { not: options.sessionId } } })).count;
    await recordUserAudit(
      options.origin,
      {
        userId: options.userId,
        action: 'auth.password_changed',
        target: { type: 'user', id: options.userId },
        details: { sessions_ended: ended },
      },
      tx,
    );
    return ended;
  });
  sendMailInBackground(passwordChangedMail({ to: user.email, at: now, how: 'change', resetLink: appLink(FORGOT_PATH) }));
  return { sessionsEnded };
}
