import type { z } from 'zod';

const UNKNOWN_FIELDS_NAMED = 10;

/**
 * Unknown fields are refused by name, so a typo (`event` for `events`) is not silently ignored. At most
 * a few are named, and one error counts the rest: an object with a million keys earns two errors,
 * not a million.
 */
export function refuseUnknownFields(known: readonly string[]) {
  return (body: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    let unknown = 0;
    for (const key in body) {
      if (!Object.hasOwn(body, key) || known.includes(key)) continue;
      if (++unknown <= UNKNOWN_FIELDS_NAMED) ctx.addIssue({ code: 'custom', path: [key], message: 'is not a known field' });
    }
    if (unknown > UNKNOWN_FIELDS_NAMED) {
      ctx.addIssue({ code: 'custom', message: `has ${unknown} unknown fields; the first ${UNKNOWN_FIELDS_NAMED} are named` });
    }
  };
}
