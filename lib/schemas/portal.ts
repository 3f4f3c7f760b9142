import { z } from 'zod';
import { API_SCOPES } from '@/lib/auth/scopes';
import { storableString } from './text-rule';

// The portal's own request schemas (sign-up, sign-in, tokens), shared by the forms (zodResolver) and the portal-api handlers.
// Every text field obeys the one text rule (lib/schemas/text-rule.ts) and has a maximum length.

export const ZSignUpRequest = z.object({
  company: storableString().trim().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters'),
  email: storableString()
    .trim()
    .toLowerCase()
    .max(254, 'must be at most 254 characters')
    .pipe(z.email({ error: 'must be an e-mail address' })),
  password: storableString().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters'),
});
export type TSignUpRequest = z.infer<typeof ZSignUpRequest>;

export const ZSignInRequest = z.object({
  email: storableString().trim().toLowerCase().min(1, 'is required').max(254, 'must be at most 254 characters'),
  password: storableString().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

/** One scope's name (lib/auth/scopes.ts). */
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
