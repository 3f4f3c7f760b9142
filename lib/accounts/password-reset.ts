import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { recordUserAudit } from '@/lib/audit/record-audit';
import { hashPassword } from '@/lib/auth/password';
import { admitMailRequest } from '@/lib/auth/mail-limiter';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { AppError, validationError } from '@/lib/errors/app-error';
import { passwordChangedMail, passwordResetMail } from '@/lib/mail/messages';
import { sendMailInBackground } from '@/lib/mail/send-mail';
import { appLink } from '@/lib/mail/settings';
import { ZPasswordResetToken, type TForgotPasswordRequest, type TResetPasswordRequest } from '@/lib/schemas/portal';

// Password reset by e-mail (docs/decisions/mail.md). The database keeps only the link's SHA-256, so a leaked table
// resets nobody's password. Using a link is one UPDATE guarded by "not used, not expired" (one winner of a race); it
// voids the user's other links and ends all their sessions.

export const RESET_PATH = '/reset-password';
export const FORGOT_PATH = '/forgot-password';

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// The same answer, taking as long, whether `email` has an account or not: the mail leaves after the answer.
export async function requestPasswordReset(options: TForgotPasswordRequest & { address: string }): Promise<{ message: string }> {
  await admitMailRequest({ email: options.email, address: options.address });
  const user = await db.user.findUnique({ where: { email: options.email }, select: { id: true, email: true } });
  const token = randomBytes(32).toString('base64url');
  const minutes = env().PASSWORD_RESET_MINUTES;
  const answer = {
    message: `If an account exists for this e-mail, we sent it a link to reset the password. It works for ${minutes} minutes.`,
  };
  if (!user) {
    // Statements of the same cost as a real link's, that change nothing: an unknown e-mail takes as long.
    await db.passwordReset.deleteMany({ where: { tokenHash: tokenHash(token), expiresAt: { lt: new Date(0) } } });
    await db.passwordReset.updateMany({ where: { tokenHash: tokenHash(token) }, data: { usedAt: new Date() } });
    return answer;
  }
  const now = new Date();
  // The user's dead links are kept a day (for whoever asks why a link failed), then dropped here.
  await db.passwordReset.deleteMany({ where: { userId: user.id, expiresAt: { lt: new Date(now.getTime() - 24 * 3_600_000) } } });
  await db.passwordReset.create({
    data: {
      userId: user.id,
      tokenHash: tokenHash(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + minutes * 60_000),
      requestedBy: options.address,
    },
  });
  sendMailInBackground(passwordResetMail({ to: user.email, link: appLink(RESET_PATH, { token }), minutes }));
  return answer;
}

export type ResetLinkState = 'valid' | 'expired' | 'used' | 'invalid';

// Opening the page uses nothing: mail scanners open links too.
export async function checkPasswordResetLink(token: unknown): Promise<ResetLinkState> {
  if (!ZPasswordResetToken.safeParse(token).success) return 'invalid';
  const row = await db.passwordReset.findUnique({
    where: { tokenHash: tokenHash(token as string) },
    select: { usedAt: true, expiresAt: true },
  });
  if (!row) return 'invalid';
  if (row.usedAt) return 'used';
  return row.expiresAt.getTime() <= Date.now() ? 'expired' : 'valid';
}

export const RESET_LINK_MESSAGES: Record<Exclude<ResetLinkState, 'valid'>, string> = {
  expired: 'This password-reset link has expired. Ask for a new one.',
  used: 'This password-reset link has already been used. Ask for a new one if you still need it.',
  invalid: 'This is not a valid password-reset link. Check that you copied all of it, or ask for a new one.',
};

export async function resetPassword(
  options: TResetPasswordRequest & { address: string; userAgent?: string | null },
): Promise<{ userId: string; sessionsEnded: number }> {
  const hash = tokenHash(options.token);
  const row = await db.passwordReset.findUnique({
    where: { tokenHash: hash },
    select: { userId: true, user: { select: { email: true } } },
  });
  if (!row) throw linkRefused('invalid');
  // Per address only: each link sends at most one notice, and the links are counted per e-mail already, so a
  // stranger who used up an e-mail's count cannot keep its owner from using the link they have.
  await admitMailRequest({ address: options.address });
  const passwordHash = await hashPassword(options.password);
  const now = new Date();
  const sessionsEnded = await db.$transaction(async (tx) => {
    const used = await tx.passwordReset.updateMany({
      where: { tokenHash: hash, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count !== 1) return null;
    await tx.passwordReset.updateMany({ where: { userId: row.userId, usedAt: null }, data: { usedAt: now } });
    await tx.user.update({ where: { id: row.userId }, data: { passwordHash } });
    const ended = (await tx.session.deleteMany({ where: { userId: row.userId } })).count;
    // The one who holds the link acts as the user it was sent to.
    await recordUserAudit(
      {
        actor: { kind: 'user', userId: row.userId, email: row.user.email },
        address: options.address,
        userAgent: options.userAgent ?? null,
      },
      {
        userId: row.userId,
        action: 'auth.password_reset',
        target: { type: 'user', id: row.userId },
        details: { sessions_ended: ended },
      },
      tx,
    );
    return ended;
  });
  if (sessionsEnded === null) throw linkRefused(await checkPasswordResetLink(options.token));
  sendMailInBackground(passwordChangedMail({ to: row.user.email, at: now, how: 'reset', resetLink: appLink(FORGOT_PATH) }));
  return { userId: row.userId, sessionsEnded };
}

function linkRefused(state: ResetLinkState): AppError {
  const message = state === 'valid' ? RESET_LINK_MESSAGES.invalid : RESET_LINK_MESSAGES[state];
  return validationError([{ path: 'token', message }], { message });
}
