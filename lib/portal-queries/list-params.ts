import { z } from 'zod';
import { calendarDayViolation } from '@/lib/schemas/fields';
import { rangeInOrder } from '@/lib/schemas/lifecycle';
import { storableString } from '@/lib/schemas/text-rule';

// Query-string parameters of the portal's list endpoints, parsed once with parseOperation, so a bad
// filter is a 422 naming the parameter. Text filters obey the one text rule (a NUL would reach
// PostgreSQL); days are real dates in the manifest years. Paging is by keyset cursor (opaque tokens
// from the previous page, lib/lifecycle/cursor.ts) and stays lenient: a cursor that is off falls
// back to the first page.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const day = z
  .string()
  .superRefine((value, ctx) => {
    const [, year, month, dayOfMonth] = DAY.exec(value) ?? [];
    const violation = year && month && dayOfMonth ? calendarDayViolation(year, month, dayOfMonth) : 'must be a date, YYYY-MM-DD';
    if (violation) ctx.addIssue({ code: 'custom', message: violation });
  })
  .optional();

const filterText = (max: number) => storableString().trim().max(max, `must be at most ${max} characters`).optional();

export const ZManifestListQuery = z.object({
  q: filterText(100),
  type: z.enum(['container', 'daily']).optional().catch(undefined),
  service: filterText(100),
  from: day,
  to: day,
  after: z.string().max(200).optional().catch(undefined),
  before: z.string().max(200).optional().catch(undefined),
  limit: z.coerce.number().int().min(1).max(100).optional().catch(undefined),
}).superRefine(rangeInOrder);
export type TManifestListQuery = z.infer<typeof ZManifestListQuery>;

export const ZPageQuery = z.object({
  cursor: z.string().max(40).optional().catch(undefined),
  limit: z.coerce.number().int().min(1).max(500).optional().catch(undefined),
});

/** A package is looked up by its tracking number: the same text rule and length as the API's. */
export const ZFindPackageQuery = z.object({
  tracking: storableString().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
});

export function searchParamsObject(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(url).searchParams) if (value !== '') out[key] = value;
  return out;
}
