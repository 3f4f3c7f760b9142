import type { z } from 'zod';
import { validationError, type ErrorDetail } from '@/lib/http/errors';

/** Published alternative spellings of a field: canonical name -> other names clients send. */
export type Aliases = Readonly<Record<string, readonly string[]>>;

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, segment) => {
    if (typeof segment === 'number') return `${out}[${segment}]`;
    return out ? `${out}.${String(segment)}` : String(segment);
  }, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Renames aliases to their canonical name. Remembers which name the client used, so that an
 * error about `length` is reported under `lenght` when that is what was sent.
 */
function resolveAliases(input: Record<string, unknown>, aliases: Aliases) {
  const value: Record<string, unknown> = { ...input };
  const sentAs = new Map<string, string>();
  const conflicts: ErrorDetail[] = [];
  for (const [canonical, others] of Object.entries(aliases)) {
    for (const other of others) {
      if (!(other in value)) continue;
      const alias = value[other];
      delete value[other];
      if (!(canonical in value) || value[canonical] === '' || value[canonical] === null) {
        value[canonical] = alias;
        sentAs.set(canonical, other);
      } else if (alias !== '' && alias !== null && String(alias) !== String(value[canonical])) {
        conflicts.push({ path: other, message: `conflicts with ${canonical}; send one of them` });
      }
    }
  }
  return { value, sentAs, conflicts };
}

/**
 * Parses an operation body with its schema. Aliases apply to the object at `at` (the body itself
 * when omitted). Every failing field is reported at once; throws ApiError('validation_failed').
 */
export function parseOperation<S extends z.ZodType>(
  schema: S,
  body: unknown,
  options: { aliases?: Aliases; at?: string } = {},
): z.output<S> {
  const { aliases = {}, at } = options;
  let input = body;
  let sentAs = new Map<string, string>();
  let conflicts: ErrorDetail[] = [];
  const target = at ? (isRecord(body) ? body[at] : undefined) : body;
  if (isRecord(target)) {
    const resolved = resolveAliases(target, aliases);
    sentAs = resolved.sentAs;
    conflicts = resolved.conflicts.map((c) => ({ ...c, path: at ? `${at}.${c.path}` : c.path }));
    input = at ? { ...(body as Record<string, unknown>), [at]: resolved.value } : resolved.value;
  }
  const result = schema.safeParse(input);
  if (result.success && conflicts.length === 0) return result.data;
  const depth = at ? 1 : 0;
  const details = (result.success ? [] : result.error.issues).map((issue) => {
    const path = [...issue.path];
    const key = path[depth];
    if (typeof key === 'string' && sentAs.has(key)) path[depth] = sentAs.get(key)!;
    return { path: formatPath(path) || '(body)', message: issueMessage(issue) };
  });
  throw validationError([...details, ...conflicts]);
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
  }
  return issue.message;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
