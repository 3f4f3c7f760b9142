import { z } from 'zod';
import { API_SCOPES } from '@/lib/auth/scopes';
import { ERROR_CODES } from '@/lib/errors/app-error';
import { MAX_ERROR_DETAILS } from './parse';

// The one error envelope (design.md "Errors"), answered by lib/http/errors.ts errorBody for the API and the portal
// alike. Loose objects: a code may add fields of its own beside `message` (a conflict's existing ManifestID, a
// lifecycle refusal's `current_status`), and the manifest operations add `IsSuccess` beside `error`.

export const ZErrorDetail = z.object({
  path: z.string().meta({ examples: ['package.ToPostalCode'] }),
  message: z.string(),
});

export const ZErrorResponse = z
  .looseObject({
    error: z.looseObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z
        .array(ZErrorDetail)
        .max(MAX_ERROR_DETAILS)
        .optional()
        .meta({ description: `Every failing field, up to ${MAX_ERROR_DETAILS}; \`details_truncated\` counts the rest.` }),
      details_truncated: z
        .number()
        .int()
        .min(1)
        .optional()
        .meta({
          description: `Present when more than ${MAX_ERROR_DETAILS} fields failed: how many are not listed in \`details\`.`,
        }),
      request_id: z.string().optional().meta({ description: 'On 500s: quote it to support.' }),
      required_scope: z
        .enum(API_SCOPES)
        .optional()
        .meta({ description: 'On `insufficient_scope` (403): the scope the operation needs and the token lacks.' }),
      token_scopes: z
        .array(z.enum(API_SCOPES))
        .optional()
        .meta({ description: 'On `insufficient_scope` (403): the scopes the token has.' }),
    }),
    IsSuccess: z
      .union([z.literal('false'), z.literal(false)])
      .optional()
      .meta({
        description:
          'On the manifest operations only: the text `"false"` from POST /wf/manifest, the boolean `false` from POST /wf/package.',
      }),
  })
  .meta({
    example: {
      error: { code: 'validation_failed', message: 'weight: is required', details: [{ path: 'weight', message: 'is required' }] },
    },
  });

export type TErrorResponse = z.output<typeof ZErrorResponse>;
