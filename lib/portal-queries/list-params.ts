import { z } from 'zod';

// Query-string parameters of the portal's list endpoints, parsed once and shared with the pages.
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .optional()
  .catch(undefined);

export const ZManifestListQuery = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  type: z.enum(['container', 'daily']).optional().catch(undefined),
  service: z.string().trim().max(100).optional().catch(undefined),
  from: day,
  to: day,
  offset: z.coerce.number().int().min(0).max(1_000_000).optional().catch(undefined),
  limit: z.coerce.number().int().min(1).max(100).optional().catch(undefined),
});
export type TManifestListQuery = z.infer<typeof ZManifestListQuery>;

export const ZPageQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).optional().catch(undefined),
  limit: z.coerce.number().int().min(1).max(500).optional().catch(undefined),
});

export function searchParamsObject(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(url).searchParams) if (value !== '') out[key] = value;
  return out;
}
