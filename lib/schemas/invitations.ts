import { z } from 'zod';
import { MemberRole } from '@/lib/generated/prisma/enums';
import { storableString } from './text-rule';

// Invitations and switching accounts (docs/decisions/teams.md), a file of its own so that teams work does not edit one list.

const ROLES = Object.values(MemberRole) as [MemberRole, ...MemberRole[]];

export const ZMemberRole = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` });

/** The rule for every new password (as ZSignUpRequest's): a new user sets one when accepting. */
const newPassword = () => storableString().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters');

export const ZCreateInvitationRequest = z.object({
  email: storableString()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email({ error: 'must be an e-mail address' })),
  role: ZMemberRole,
});
export type TCreateInvitationRequest = z.infer<typeof ZCreateInvitationRequest>;

/** An invitation link's token: 32 random bytes, base64url (lib/teams/invitations.ts). */
export const ZInvitationToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not an invitation link of ours');

// POST /portal-api/auth/accept-invitation: the password is the user's own (an existing user not signed in) or a new
// one (a new user); a signed-in invited user sends none.
export const ZAcceptInvitationRequest = z.object({
  token: ZInvitationToken,
  password: storableString().max(200, 'must be at most 200 characters').optional(),
});

/** The accept form of a new user: a password of the sign-up rule. */
export const ZAcceptAsNewUserForm = z.object({ token: ZInvitationToken, password: newPassword() });
export type TAcceptAsNewUserForm = z.infer<typeof ZAcceptAsNewUserForm>;

/** The accept form of an existing user who is not signed in: their password. */
export const ZAcceptAsExistingUserForm = z.object({
  token: ZInvitationToken,
  password: storableString().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type TAcceptAsExistingUserForm = z.infer<typeof ZAcceptAsExistingUserForm>;

export const ZSwitchAccountRequest = z.object({
  accountId: z
    .string({ error: 'is required' })
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'is not an account id'),
});

const isoTime = () => z.string().meta({ format: 'date-time' });

export const ZInvitationView = z.object({
  id: z.string(),
  email: z.string(),
  role: ZMemberRole,
  invitedBy: z.string().nullable(),
  createdAt: isoTime(),
  expiresAt: isoTime(),
});

// GET /portal-api/invitations: the open ones (not accepted, not revoked, not expired), newest first.
export const ZInvitationListResponse = z.object({ invitations: z.array(ZInvitationView) });

export const ZInvitationCreatedResponse = z.object({
  invitation: ZInvitationView,
  /** An open invitation to the same e-mail was revoked (its link no longer works) and this one sent instead. */
  replaced: z.boolean(),
  message: z.string(),
});

export const ZInvitationRevokedResponse = z.object({ ok: z.literal(true) });

export const ZInvitationAcceptedResponse = z.object({
  ok: z.literal(true),
  account: z.object({ id: z.string(), name: z.string() }),
  role: ZMemberRole,
  /** The user was a member already (the role they have is kept); the link is used up all the same. */
  alreadyMember: z.boolean(),
  message: z.string(),
});

export const ZAccountChoice = z.object({ id: z.string(), name: z.string(), role: ZMemberRole, current: z.boolean() });

// GET /portal-api/session/accounts: the accounts the user is a member of, by name.
export const ZAccountListResponse = z.object({ accounts: z.array(ZAccountChoice) });

export const ZAccountSwitchedResponse = z.object({ account: z.object({ id: z.string(), name: z.string() }), role: ZMemberRole });

export type TInvitationView = z.output<typeof ZInvitationView>;
export type TInvitationListResponse = z.output<typeof ZInvitationListResponse>;
export type TInvitationCreatedResponse = z.output<typeof ZInvitationCreatedResponse>;
export type TInvitationRevokedResponse = z.output<typeof ZInvitationRevokedResponse>;
export type TInvitationAcceptedResponse = z.output<typeof ZInvitationAcceptedResponse>;
export type TAccountListResponse = z.output<typeof ZAccountListResponse>;
export type TAccountSwitchedResponse = z.output<typeof ZAccountSwitchedResponse>;
