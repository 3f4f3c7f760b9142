import { z } from 'zod';

// Portal-only request schemas, shared by the forms (zodResolver) and the portal-api handlers.

export const ZSignUpRequest = z.object({
  company: z.string().trim().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters'),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email({ error: 'must be an e-mail address' })),
  password: z.string().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters'),
});
export type TSignUpRequest = z.infer<typeof ZSignUpRequest>;

export const ZSignInRequest = z.object({
  email: z.string().trim().toLowerCase().min(1, 'is required').max(254),
  password: z.string().min(1, 'is required').max(200),
});
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

export const ZCreateTokenRequest = z.object({
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
});
export type TCreateTokenRequest = z.infer<typeof ZCreateTokenRequest>;
