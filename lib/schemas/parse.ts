import type { z } from 'zod';
import { MAX_ERROR_DETAILS, validationError, type ErrorDetail } from '@/lib/errors/app-error';
import { compiled } from './compiled';
import { textRuleViolation } from './text-rule';

export type Aliases = Readonly<Record<string, readonly string[]>>;

/** A 422 lists at most this many details, and counts the rest: its size does not grow with the input. */
export { MAX_ERROR_DETAILS };
/** An unknown key is named in a path; a key of a megabyte is named by its beginning. */
const PATH_SEGMENT_MAX = 100;

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, segment) => {
    if (typeof segment === 'number') return `${out}[${segment}]`;
    let name = String(segment);
    if (name.length > PATH_SEGMENT_MAX) name = `${name.slice(0, PATH_SEGMENT_MAX)}…`;
    return out ? `${out}.${name}` : name;
  }, '');
}

/** Stands for `count` issues a schema chose not to keep: counted in `details_truncated`, never listed. */
export function omittedIssues(count: number) {
  return { code: 'custom' as const, message: `has ${count} more errors (not listed)`, params: { omittedIssues: count } };
}

function omittedCount(issue: z.core.$ZodIssue): number {
  const count = issue.code === 'custom' ? (issue.params as { omittedIssues?: unknown } | undefined)?.omittedIssues : undefined;
  return typeof count === 'number' ? count : 0;
}

/**
 * The last line of defence for storage: no text in a parsed request (keys included) may hold what PostgreSQL
 * refuses, even if a future schema forgets the text rule. Allocates nothing until it finds something.
 */
function findUnstorableText(value: unknown): ErrorDetail | undefined {
  const path: PropertyKey[] = [];
  const violation = unstorableAt(value, path);
  if (!violation) return undefined;
  path.reverse();
  return { path: formatPath(path) || '(body)', message: violation };
}

function unstorableAt(value: unknown, path: PropertyKey[]): string | undefined {
  if (typeof value === 'string') return textRuleViolation(value, { multiline: true });
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const violation = unstorableAt(value[i], path);
      if (violation) {
        path.push(i);
        return violation;
      }
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const keyViolation = textRuleViolation(key);
    if (keyViolation) {
      path.push(key);
      return `has a field name that ${keyViolation}`;
    }
    const violation = unstorableAt((value as Record<string, unknown>)[key], path);
    if (violation) {
      path.push(key);
      return violation;
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NO_ALIASES_USED = { sentAs: new Map<string, string>(), conflicts: [] as ErrorDetail[] };
const aliasNames = new WeakMap<Aliases, ReadonlySet<string>>();

/** Two spellings agree when their text does: "5" and 5 are one value; objects compare as JSON, not as "[object Object]". */
function comparable(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Renames aliases to their canonical name, remembering which was used so errors name what was sent. A body using an
 * alias is copied without it (not `delete`, which would leave V8 a slow dictionary object).
 */
function resolveAliases(input: Record<string, unknown>, aliases: Aliases) {
  let names = aliasNames.get(aliases);
  if (!names) {
    names = new Set(Object.values(aliases).flat());
    aliasNames.set(aliases, names);
  }
  let used = false;
  for (const name of names) if (Object.hasOwn(input, name)) used = true;
  if (!used) return { value: input, ...NO_ALIASES_USED };
  const value: Record<string, unknown> = {};
  for (const key in input) {
    if (!Object.hasOwn(input, key) || names.has(key)) continue;
    // A key "__proto__" stays a key, as JSON.parse made it, rather than setting the prototype.
    if (key === '__proto__')
      Object.defineProperty(value, key, { value: input[key], enumerable: true, writable: true, configurable: true });
    else value[key] = input[key];
  }
  const sentAs = new Map<string, string>();
  const conflicts: ErrorDetail[] = [];
  for (const [canonical, others] of Object.entries(aliases)) {
    for (const other of others) {
      if (!Object.hasOwn(input, other)) continue;
      const alias = input[other];
      const current = Object.hasOwn(value, canonical) ? value[canonical] : undefined;
      if (current === undefined || current === '' || current === null) {
        value[canonical] = alias;
        sentAs.set(canonical, other);
      } else if (alias !== '' && alias !== null && comparable(alias) !== comparable(current)) {
        conflicts.push({ path: other, message: `conflicts with ${canonical}; send one of them` });
      }
    }
  }
  return { value, sentAs, conflicts };
}

/** Parses an operation body, reporting every failing field at once; throws AppError('validation_failed'). */
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
  // reportInput, so an issue tells a missing value from one of the wrong type. The compiled parser ignores it on its
  // happy path and hands a refusal to the runtime parser with it: one call. A schema Zod could not compile is parsed
  // without options first (only then does the runtime take its fast path for objects), and again if it refuses.
  const fast = compiled(schema);
  let result = fast.safeParse(input, fast === schema ? undefined : { reportInput: true });
  if (!result.success && fast === schema) result = schema.safeParse(input, { reportInput: true });
  if (result.success && conflicts.length === 0) {
    const unstorable = findUnstorableText(result.data);
    if (unstorable) throw validationError([unstorable]);
    return result.data;
  }
  const depth = at ? 1 : 0;
  const all = result.success ? [] : result.error.issues;
  let omitted = 0;
  for (const issue of all) omitted += omittedCount(issue);
  const issues = omitted ? all.filter((issue) => !omittedCount(issue)) : all;
  const details = issues.slice(0, MAX_ERROR_DETAILS).map((issue) => {
    const path = [...issue.path];
    const key = path[depth];
    if (typeof key === 'string' && sentAs.has(key)) path[depth] = sentAs.get(key)!;
    return { path: formatPath(path) || '(body)', message: issueMessage(issue) };
  });
  throw validationError([...details, ...conflicts], { total: issues.length + omitted + conflicts.length });
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
