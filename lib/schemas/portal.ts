import { z } from 'zod';
import { API_SCOPES } from '@/lib/auth/scopes';
import { MEMBER_ROLES } from './member-roles';
import { storableString } from './text-rule';

// The portal's request schemas, shared by the forms (zodResolver) and the portal-api handlers.

/** The rule for every new password: at sign-up, a reset and a change alike. */
const newPassword = () => storableString().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters');

/** A company's name, as an account is named: at sign-up, and again when its link is followed. */
const companyName = () =>
  storableString().trim().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters');

export const ZSignUpRequest = z.object({
  company: companyName(),
  email: storableString()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email({ error: 'must be an e-mail address' })),
  password: newPassword(),
});
export type TSignUpRequest = z.infer<typeof ZSignUpRequest>;

/** A sign-up link's token: 32 random bytes, base64url (lib/accounts/sign-up.ts). */
export const ZSignUpToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not a sign-up link of ours');

// POST /portal-api/auth/verify-email: the link's token, and a company name only when the one asked for at sign-up
// was taken meanwhile (the page then asks for another).
export const ZVerifySignUpRequest = z.object({
  token: ZSignUpToken,
  company: companyName().optional(),
});
export type TVerifySignUpRequest = z.infer<typeof ZVerifySignUpRequest>;

export const ZSignInRequest = z.object({
  email: storableString().trim().toLowerCase().min(1, 'is required').max(254, 'must be at most 254 characters'),
  password: storableString().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

export const ZForgotPasswordRequest = z.object({
  email: storableString()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email({ error: 'must be an e-mail address' })),
});
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;

/** A reset link's token: 32 random bytes, base64url (lib/accounts/password-reset.ts). */
export const ZPasswordResetToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not a password-reset link of ours');

export const ZResetPasswordRequest = z.object({
  token: ZPasswordResetToken,
  password: newPassword(),
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

export const ZChangePasswordRequest = z.object({
  currentPassword: storableString().min(1, 'is required').max(200, 'must be at most 200 characters'),
  newPassword: newPassword(),
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

export const ZApiScope = z.enum(API_SCOPES, { error: `must be one of ${API_SCOPES.join(', ')}` });

export const ZCreateTokenRequest = z.object({
  name: storableString().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  // Omitted or null: full access (every scope, those added later included). Else exactly these, at least one.
  scopes: z
    .array(ZApiScope)
    .min(1, 'choose at least one scope, or full access')
    .max(API_SCOPES.length, `must list at most ${API_SCOPES.length} scopes`)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not name a scope twice')
    .nullable()
    .optional(),
});
export type TCreateTokenRequest = z.infer<typeof ZCreateTokenRequest>;

export const ZMemberRole = z.enum(MEMBER_ROLES, { error: `must be one of ${MEMBER_ROLES.join(', ')}` });

export const ZChangeMemberRequest = z.object({ role: ZMemberRole });

// DELETE /portal-api/members/{membershipId}: what becomes of the API tokens the member created in this account (both
// environments): revoked (the default) or kept working (docs/decisions/teams.md).
export const ZRemoveMemberRequest = z.object({
  tokens: z.enum(['revoke', 'keep'], { error: 'must be revoke or keep' }).default('revoke'),
});
