import { z } from 'zod';
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

export const ZCreateTokenRequest = z.object({
  name: storableString().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
});
export type TCreateTokenRequest = z.infer<typeof ZCreateTokenRequest>;
