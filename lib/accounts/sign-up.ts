import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '@/lib/auth/password';
import { admitMailRequest } from '@/lib/auth/mail-limiter';
import { admitSignUp } from '@/lib/auth/sign-up-limiter';
import { db, Prisma } from '@/lib/db';
import { env } from '@/lib/env';
import { AppError, validationError } from '@/lib/errors/app-error';
import { signUpKnownEmailMail, signUpLinkMail } from '@/lib/mail/messages';
import { sendMailInBackground } from '@/lib/mail/send-mail';
import { appLink } from '@/lib/mail/settings';
import { ZSignUpToken, type TSignUpRequest, type TVerifySignUpRequest } from '@/lib/schemas/portal';

// A sign-up creates only a pending row and a mail (docs/decisions/portal-auth.md): the answer is the same, and takes as
// long, whether or not the e-mail has an account, so the form tells nobody who has one. Following the link creates the
// account, its user and the owner's membership in one guarded transaction, so two racing requests make one account.

export const VERIFY_PATH = '/verify-email';

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

// Taken by any case variant: names differing only by case would confuse a manifest's reader.
async function companyTaken(company: string): Promise<boolean> {
  return (
    (await db.account.findFirst({ where: { name: { equals: company, mode: 'insensitive' } }, select: { id: true } })) !== null
  );
}

function taken(path: 'company' | 'email'): AppError {
  const message =
    path === 'company'
      ? 'An account with this company name already exists. Ask a colleague to invite you, or use another name.'
      : 'An account for this e-mail already exists. Sign in instead, or reset your password.';
  return new AppError('conflict', message, { details: [{ path, message }] });
}

// A taken company name is a 409 at once: names are not secret (manifests print them), and it saves a trip to the mailbox.
export async function requestSignUp(options: TSignUpRequest & { address: string }): Promise<{ message: string }> {
  await admitSignUp(options.address);
  await admitMailRequest({ email: options.email, address: options.address });
  const company = options.company.trim();
  if (await companyTaken(company)) throw taken('company');
  const email = options.email;
  const hours = env().SIGN_UP_LINK_HOURS;
  const answer = {
    // Nothing of the request in it: the body is byte for byte the same for every sign-up.
    message: `Check your inbox: we sent you a message. To create your account, open the link in it within ${hours} hours.`,
  };
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  // Both ways hash the password and make the same writes; the mail leaves after the answer.
  const passwordHash = await hashPassword(options.password);
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  // The latest link wins; dead ones are kept a day for whoever asks why a link failed, then dropped here.
  await db.pendingSignUp.deleteMany({ where: { email, expiresAt: { lt: new Date(now.getTime() - 24 * 3_600_000) } } });
  await db.pendingSignUp.updateMany({ where: { email, usedAt: null, replacedAt: null }, data: { replacedAt: now } });
  if (user) {
    // A statement of the same cost as the insert below, that changes nothing.
    await db.pendingSignUp.updateMany({ where: { tokenHash: tokenHash(token) }, data: { usedAt: now } });
    sendMailInBackground(
      signUpKnownEmailMail({ to: email, at: now, signInLink: appLink('/sign-in'), resetLink: appLink('/forgot-password') }),
    );
    return answer;
  }
  await db.pendingSignUp.create({
    data: {
      email,
      company,
      passwordHash,
      tokenHash: tokenHash(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + hours * 3_600_000),
      requestedBy: options.address,
    },
  });
  sendMailInBackground(signUpLinkMail({ to: email, link: appLink(VERIFY_PATH, { token }), hours }));
  return answer;
}

export type SignUpLinkState = 'valid' | 'expired' | 'used' | 'replaced' | 'registered' | 'invalid';

export const SIGN_UP_LINK_MESSAGES: Record<Exclude<SignUpLinkState, 'valid'>, string> = {
  expired: 'This sign-up link has expired. Sign up again to get a new one.',
  used: 'This sign-up link has already been used: the account exists. Sign in.',
  replaced: 'This sign-up link was replaced by a newer one: use the link in the latest message we sent, or sign up again.',
  registered: 'An account for this e-mail already exists, so this link cannot create another. Sign in, or reset your password.',
  invalid: 'This is not a valid sign-up link. Check that you copied all of it, or sign up again.',
};

export interface SignUpLink {
  state: SignUpLinkState;
  email?: string;
  company?: string;
  companyTaken?: boolean;
}

// Opening the page creates nothing: mail scanners open links too.
export async function checkSignUpLink(token: unknown): Promise<SignUpLink> {
  if (!ZSignUpToken.safeParse(token).success) return { state: 'invalid' };
  const row = await db.pendingSignUp.findUnique({
    where: { tokenHash: tokenHash(token as string) },
    select: { email: true, company: true, usedAt: true, replacedAt: true, expiresAt: true },
  });
  if (!row) return { state: 'invalid' };
  if (row.usedAt) return { state: 'used' };
  if (row.replacedAt) return { state: 'replaced' };
  if (row.expiresAt.getTime() <= Date.now()) return { state: 'expired' };
  if (await db.user.findUnique({ where: { email: row.email }, select: { id: true } })) return { state: 'registered' };
  return { state: 'valid', email: row.email, company: row.company, companyTaken: await companyTaken(row.company) };
}

function linkRefused(state: SignUpLinkState): AppError {
  const message = state === 'valid' ? SIGN_UP_LINK_MESSAGES.invalid : SIGN_UP_LINK_MESSAGES[state];
  return validationError([{ path: 'token', message }], { message });
}

// A company name taken meanwhile is a 409 and the link stays good for another name; an e-mail that got an account
// meanwhile (an invitation accepted) is a 409 and the link is spent.
export async function completeSignUp(options: TVerifySignUpRequest): Promise<{ userId: string; accountId: string }> {
  const hash = tokenHash(options.token);
  const now = new Date();
  try {
    const made = await db.$transaction(async (tx) => {
      // The one statement that decides: of two requests with one link, the second waits here for the first and
      // then finds the link used (or, if the first rolled back on a taken name, goes on itself).
      const used = await tx.pendingSignUp.updateMany({
        where: { tokenHash: hash, usedAt: null, replacedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (used.count !== 1) return null;
      const row = await tx.pendingSignUp.findUniqueOrThrow({
        where: { tokenHash: hash },
        select: { email: true, company: true, passwordHash: true },
      });
      if (await tx.user.findUnique({ where: { email: row.email }, select: { id: true } })) return 'registered' as const;
      const company = (options.company ?? row.company).trim();
      const existing = await tx.account.findFirst({
        where: { name: { equals: company, mode: 'insensitive' } },
        select: { id: true },
      });
      if (existing) throw taken('company');
      const account = await tx.account.create({ data: { name: company }, select: { id: true } });
      const user = await tx.user.create({ data: { email: row.email, passwordHash: row.passwordHash }, select: { id: true } });
      // Whoever creates an account owns it.
      await tx.membership.create({ data: { accountId: account.id, userId: user.id, role: 'owner' } });
      return { userId: user.id, accountId: account.id };
    });
    if (made === 'registered') throw taken('email');
    if (made === null) throw linkRefused((await checkSignUpLink(options.token)).state);
    return made;
  } catch (error) {
    // Two links racing for the same name (or an invitation for the same e-mail): the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw taken(JSON.stringify(error.meta ?? {}).includes('email') ? 'email' : 'company');
    }
    throw error;
  }
}
