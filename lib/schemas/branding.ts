import { z } from 'zod';

// The portal's branding setting (PUT /portal-api/settings/branding): each field left out is kept, null removes it.
// The logo travels as base64 in the JSON body (the portal's body limit is 1 MB; 256 KB is 350 KB of base64); its
// bytes, not its name or a claimed type, decide what it is (lib/branding/logo.ts).
/** A logo's largest size (lib/branding/logo.ts checks the bytes; the table's CHECK holds the same). */
export const LOGO_MAX_BYTES = 256 * 1024;
const BASE64_MAX = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

export const ZBrandingRequest = z
  .strictObject({
    accent_color: z
      .string({ error: 'must be a colour #rrggbb, or null' })
      .max(7, 'must be a colour #rrggbb, such as #1d4ed8')
      .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb, such as #1d4ed8')
      .nullable()
      .optional(),
    logo: z
      .strictObject({
        name: z.string({ error: 'must be the file name' }).max(100, 'must be at most 100 characters'),
        // A little over the limit's base64 is let through, so that the answer says how large the file is.
        content_base64: z
          .string({ error: 'must be the file, base64-encoded' })
          .max(BASE64_MAX + 1024, `must be at most ${LOGO_MAX_BYTES.toLocaleString('en-US')} bytes (256 KB) before encoding`),
      })
      .nullable()
      .optional(),
  })
  .refine((body) => body.accent_color !== undefined || body.logo !== undefined, {
    message: 'send accent_color or logo (null removes one)',
    path: ['accent_color'],
  });
export type TBrandingRequest = z.output<typeof ZBrandingRequest>;

export interface TBranding {
  accent_color: string | null;
  logo: { name: string; type: 'image/png' | 'image/jpeg'; bytes: number; data_url: string } | null;
  updated_at: string | null;
}
