import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { createHash, randomBytes } from 'node:crypto';
import { admitInvitation } from '@/lib/auth/mail-limiter';
import { hashPassword, verifyPassword } from '@/lib/auth/password';
import { admitSignIn } from '@/lib/auth/sign-in-limiter';
import { db, Prisma } from '@/lib/db';
import { AppError, validationError } from '@/lib/errors/app-error';
import type { MemberRole } from '@/lib/generated/prisma/enums';
import { invitationMail } from '@/lib/mail/messages';
import { sendMailInBackground } from '@/lib/mail/send-mail';
import { appLink } from '@/lib/mail/settings';
import { ZInvitationToken, type TCreateInvitationRequest, type TInvitationView } from '@/lib/schemas/invitations';
import { assertPermission } from './permissions';

// As a password reset link: 32 random bytes, only their SHA-256 stored; opening the link uses nothing; using it is one
// guarded UPDATE, so of two requests racing with one link exactly one creates the membership (docs/decisions/teams.md).

export const INVITATION_HOURS = 72;
export const ACCEPT_PATH = '/invitations/accept';

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const VIEW_SELECT = {
  id: true,
  email: true,
  role: true,
  createdAt: true,
  expiresAt: true,
  invitedBy: { select: { email: true } },
} as const;

function view(row: {
  id: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: { email: string } | null;
}): TInvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy?.email ?? null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

function emailConflict(message: string): AppError {
  return new AppError('conflict', message, { details: [{ path: 'email', message }] });
}

// An open invitation to the same e-mail is revoked (its link stops working) and replaced by this one.
export async function createInvitation(
  options: TCreateInvitationRequest & {
    accountId: string;
    inviter: { id: string; email: string; role: MemberRole };
    address: string;
    origin: AuditOrigin;
  },
): Promise<{ invitation: TInvitationView; replaced: boolean }> {
  const { accountId, email, role } = options;
  if (role === 'owner') assertPermission(options.inviter.role, 'owners:manage');
  const member = await db.membership.findFirst({
    where: { accountId, user: { email: { equals: email, mode: 'insensitive' } } },
    select: { id: true },
  });
  if (member) throw emailConflict(`${email} is already a member of this account. Change their role on the Members page instead.`);
  await admitInvitation({ accountId, email, address: options.address });

  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const write = () =>
    db.$transaction(async (tx) => {
      // Expired ones just stop counting as open; a live one is revoked (its link says so) and replaced.
      await tx.invitation.updateMany({
        where: { accountId, openEmail: email, expiresAt: { lte: now } },
        data: { openEmail: null },
      });
      const revoked = await tx.invitation.updateMany({
        where: { accountId, openEmail: email },
        data: { openEmail: null, revokedAt: now },
      });
      const row = await tx.invitation.create({
        data: {
          accountId,
          email,
          openEmail: email,
          role,
          tokenHash: tokenHash(token),
          invitedById: options.inviter.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + INVITATION_HOURS * 3_600_000),
        },
        select: { ...VIEW_SELECT, account: { select: { name: true } } },
      });
      // Never the link or its token: the e-mail, the role, and whether an open one was replaced.
      await recordAudit(
        options.origin,
        {
          accountId,
          action: 'invitation.created',
          target: { type: 'invitation', id: row.id },
          details: { email, role, replaced: revoked.count > 0 },
        },
        tx,
      );
      return { row, replaced: revoked.count > 0 };
    });
  let written: Awaited<ReturnType<typeof write>>;
  try {
    written = await write();
  } catch (error) {
    // Two invitations to one e-mail at once: the open-invitation key let one through; the later one replaces it.
    if (!isUniqueViolation(error)) throw error;
    written = await write();
  }
  const { row, replaced } = written;
  sendMailInBackground(
    invitationMail({
      to: email,
      link: appLink(ACCEPT_PATH, { token }),
      accountName: row.account.name,
      role,
      invitedBy: options.inviter.email,
      hours: INVITATION_HOURS,
    }),
  );
  return { invitation: view(row), replaced };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

export async function listInvitations(options: { accountId: string }): Promise<TInvitationView[]> {
  const rows = await db.invitation.findMany({
    where: { accountId: options.accountId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    select: VIEW_SELECT,
    take: 500,
  });
  return rows.map(view);
}

// Revoking again is a no-op (a retry); an accepted invitation cannot be revoked (409: remove the member instead).
export async function revokeInvitation(options: {
  accountId: string;
  id: string;
  role: MemberRole;
  origin: AuditOrigin;
}): Promise<void> {
  const notFound = new AppError('not_found', 'No invitation of this account has this id.');
  if (!UUID.test(options.id)) throw notFound;
  const row = await db.invitation.findFirst({
    where: { id: options.id, accountId: options.accountId },
    select: { role: true, email: true, acceptedAt: true, revokedAt: true },
  });
  if (!row) throw notFound;
  if (row.role === 'owner') assertPermission(options.role, 'owners:manage');
  if (row.revokedAt) return;
  const { count } = await db.$transaction(async (tx) => {
    const revoked = await tx.invitation.updateMany({
      where: { id: options.id, accountId: options.accountId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date(), openEmail: null },
    });
    if (revoked.count === 1) {
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          action: 'invitation.revoked',
          target: { type: 'invitation', id: options.id },
          details: { email: row.email, role: row.role },
        },
        tx,
      );
    }
    return revoked;
  });
  if (count === 1) return;
  const now = await db.invitation.findFirst({ where: { id: options.id }, select: { acceptedAt: true } });
  if (now?.acceptedAt) {
    throw new AppError('conflict', 'This invitation was already accepted: remove the member on the Members page instead.');
  }
}

export type InvitationLinkState = 'valid' | 'expired' | 'used' | 'revoked' | 'invalid';

export const INVITATION_LINK_MESSAGES: Record<Exclude<InvitationLinkState, 'valid'>, string> = {
  expired: `This invitation has expired (an invitation works for ${INVITATION_HOURS} hours). Ask the person who invited you to send a new one.`,
  used: 'This invitation has already been accepted. Sign in to use the account; if it was not you who accepted it, tell the person who invited you.',
  revoked:
    'This invitation was withdrawn (revoked, or replaced by a newer invitation to the same e-mail). Use the newest invitation you received, or ask for a new one.',
  invalid: 'This is not a valid invitation link. Check that you copied all of it, or ask for a new invitation.',
};

export interface InvitationLink {
  state: InvitationLinkState;
  invitation?: { id: string; email: string; role: MemberRole; accountId: string; accountName: string; invitedBy: string | null };
  existingUser?: boolean;
}

function stateOf(row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }): InvitationLinkState {
  if (row.acceptedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= Date.now() ? 'expired' : 'valid';
}

// Opening the page uses nothing: mail scanners open links too.
export async function checkInvitationLink(token: unknown): Promise<InvitationLink> {
  if (!ZInvitationToken.safeParse(token).success) return { state: 'invalid' };
  const row = await db.invitation.findUnique({
    where: { tokenHash: tokenHash(token as string) },
    select: {
      id: true,
      email: true,
      role: true,
      accountId: true,
      acceptedAt: true,
      revokedAt: true,
      expiresAt: true,
      account: { select: { name: true } },
      invitedBy: { select: { email: true } },
    },
  });
  if (!row) return { state: 'invalid' };
  const state = stateOf(row);
  const invitation = {
    id: row.id,
    email: row.email,
    role: row.role,
    accountId: row.accountId,
    accountName: row.account.name,
    invitedBy: row.invitedBy?.email ?? null,
  };
  if (state !== 'valid') return { state, invitation };
  const user = await db.user.findFirst({ where: { email: { equals: row.email, mode: 'insensitive' } }, select: { id: true } });
  return { state, invitation, existingUser: Boolean(user) };
}

function linkRefused(state: Exclude<InvitationLinkState, 'valid'>): AppError {
  if (state === 'invalid') return new AppError('not_found', INVITATION_LINK_MESSAGES.invalid);
  return new AppError('gone', INVITATION_LINK_MESSAGES[state], { extra: { state } });
}

export interface AcceptedInvitation {
  userId: string;
  account: { id: string; name: string };
  role: MemberRole;
  alreadyMember: boolean;
}

// Signed in as someone else: 409, and the link stays usable. With no such user, one is made with a new password, the
// invitation proving the e-mail. Someone who is a member already keeps their role.
export async function acceptInvitation(options: {
  token: string;
  password?: string;
  signedIn: { id: string; email: string } | null;
  address: string;
  userAgent: string | null;
}): Promise<AcceptedInvitation> {
  const link = await checkInvitationLink(options.token);
  if (link.state !== 'valid' || !link.invitation) throw linkRefused(link.state === 'valid' ? 'invalid' : link.state);
  const invitation = link.invitation;
  const existing = await db.user.findFirst({
    where: { email: { equals: invitation.email, mode: 'insensitive' } },
    select: { id: true, email: true, passwordHash: true },
  });

  let userId: string | null = null;
  let newPasswordHash: string | null = null;
  if (options.signedIn) {
    if (!existing || existing.id !== options.signedIn.id) {
      const message = `You are signed in as ${options.signedIn.email}, but this invitation is for ${invitation.email}. Sign out, then open the link again.`;
      throw new AppError('conflict', message, { extra: { signed_in_as: options.signedIn.email, invited: invitation.email } });
    }
    userId = existing.id;
  } else if (existing) {
    if (!options.password) throw passwordError('is required: sign in with the password of this e-mail');
    const attempt = await admitSignIn({ email: existing.email, address: options.address });
    const ok = await verifyPassword({ hash: existing.passwordHash, password: options.password });
    await attempt.settle(ok);
    // The user may have been made a moment ago by an accept of this very link: then the link was used, not the password wrong.
    const now = ok ? link : await checkInvitationLink(options.token);
    if (now.state !== 'valid') throw linkRefused(now.state);
    if (!ok)
      throw new AppError('unauthorized', `Wrong password for ${existing.email}.`, {
        details: [{ path: 'password', message: 'is not the password of this e-mail' }],
      });
    userId = existing.id;
  } else {
    const password = options.password ?? '';
    if (password.length < 10)
      throw passwordError(
        password ? 'must be at least 10 characters' : 'is required: choose a password of at least 10 characters',
      );
    newPasswordHash = await hashPassword(password);
  }

  const now = new Date();
  try {
    return await db.$transaction(async (tx) => {
      const used = await tx.invitation.updateMany({
        where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
        data: { acceptedAt: now, openEmail: null },
      });
      if (used.count !== 1) {
        const row = await tx.invitation.findUniqueOrThrow({
          where: { id: invitation.id },
          select: { acceptedAt: true, revokedAt: true, expiresAt: true },
        });
        const state = stateOf(row);
        throw linkRefused(state === 'valid' ? 'used' : state);
      }
      const user =
        userId ??
        (await tx.user.create({ data: { email: invitation.email, passwordHash: newPasswordHash! }, select: { id: true } })).id;
      const made = await tx.membership.createMany({
        data: [{ accountId: invitation.accountId, userId: user, role: invitation.role }],
        skipDuplicates: true,
      });
      const role =
        made.count === 1
          ? invitation.role
          : (
              await tx.membership.findUniqueOrThrow({
                where: { accountId_userId: { accountId: invitation.accountId, userId: user } },
                select: { role: true },
              })
            ).role;
      await recordAudit(
        {
          actor: { kind: 'user', userId: user, email: invitation.email },
          address: options.address,
          userAgent: options.userAgent,
        },
        {
          accountId: invitation.accountId,
          action: 'invitation.accepted',
          target: { type: 'invitation', id: invitation.id },
          details: { email: invitation.email, role, newUser: userId === null, alreadyMember: made.count === 0 },
        },
        tx,
      );
      return {
        userId: user,
        account: { id: invitation.accountId, name: invitation.accountName },
        role,
        alreadyMember: made.count === 0,
      };
    });
  } catch (error) {
    // A user with this e-mail was made meanwhile: nothing was written and the link still works; they sign in.
    if (isUniqueViolation(error)) {
      throw new AppError(
        'conflict',
        `A user with ${invitation.email} was created just now. Open the link again and sign in with its password.`,
        {
          details: [{ path: 'password', message: 'sign in with the password of this e-mail' }],
        },
      );
    }
    throw error;
  }
}

function passwordError(message: string): AppError {
  return validationError([{ path: 'password', message }]);
}

export async function memberRoleOf(options: { userId: string; accountId: string }): Promise<MemberRole | null> {
  const row = await db.membership.findUnique({
    where: { accountId_userId: { accountId: options.accountId, userId: options.userId } },
    select: { role: true },
  });
  return row?.role ?? null;
}
