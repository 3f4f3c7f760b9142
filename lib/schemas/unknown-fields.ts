import { z } from 'zod';
import { formatPath, type Aliases } from './parse';

const UNKNOWN_FIELDS_NAMED = 10;

/** Refused by name, so a typo is not silently ignored; a few named and one counting the rest, however many keys. */
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

/** The fields an operation reads: each object's keys, and the fields of what its keys hold (an object, or each item of a list). */
export interface FieldTree {
  keys: ReadonlySet<string>;
  children?: Readonly<Record<string, FieldTree>>;
}

/** A schema's fields and their published alternative spellings. */
export function fieldTree(
  shape: Readonly<Record<string, unknown>>,
  aliases: Aliases = {},
  children?: Record<string, FieldTree>,
): FieldTree {
  return { keys: new Set([...Object.keys(shape), ...Object.values(aliases).flat()]), ...(children ? { children } : {}) };
}

export const ZWarning = z.object({ path: z.string(), message: z.string() });
export type TWarning = z.output<typeof ZWarning>;

/** Added to an accepted answer that ignored some of what it was sent; absent when nothing was ignored. */
export const ZWarnings = z.array(ZWarning).optional().meta({
  description:
    'What was accepted but is worth a look, each named by its path: fields this operation does not read, so they were not stored (a misspelling, or data this version does not take yet); a QuoteID that did not hold; a destination city, state or country that disagrees with its postal code. Absent when there were none.',
});

const WARNINGS_NAMED = 20;

/** Where the walk is, as links to its parent: the path's text is made only for a field that is named. */
interface At {
  parent: At | undefined;
  step: string | number;
}

function pathText(at: At): string {
  const steps: (string | number)[] = [];
  for (let link: At | undefined = at; link; link = link.parent) steps.push(link.step);
  return formatPath(steps.reverse());
}

/**
 * What an accepted request sent that its operation ignored: accepted (clients of the published samples send extras),
 * but named in the answer. Makes no path text while every key is known.
 */
export function ignoredFields(body: unknown, tree: FieldTree): TWarning[] {
  const warnings: TWarning[] = [];
  let more = 0;
  const walk = (value: unknown, node: FieldTree, parent: At | undefined) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (!node.keys.has(key)) {
        if (warnings.length < WARNINGS_NAMED)
          warnings.push({
            path: pathText({ parent, step: key }),
            message: 'is not a field of this operation: ignored, not stored',
          });
        else more++;
        continue;
      }
      const child = node.children?.[key];
      if (!child) continue;
      const held = (value as Record<string, unknown>)[key];
      const at: At = { parent, step: key };
      if (Array.isArray(held)) for (let i = 0; i < held.length; i++) walk(held[i], child, { parent: at, step: i });
      else walk(held, child, at);
    }
  };
  walk(body, tree, undefined);
  if (more > 0) warnings.push({ path: '(body)', message: `${more} more ignored fields are not named` });
  return warnings;
}
