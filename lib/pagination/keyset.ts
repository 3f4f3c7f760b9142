import { validationError } from '@/lib/errors/app-error';

// Opaque cursors naming the row a page starts after. The API answers one that is not ours with a 422 naming `cursor`;
// the portal's pager links treat it as the first page.

/** A list position: the row's time (ISO, to the ms, or to the µs where PostgreSQL's own value orders the list), the
 * branch (0 container, 1 daily) and the row id. */
export interface Cursor {
  t: string;
  k: number;
  i: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(\d{3})?Z$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.t, cursor.k, cursor.i])).toString('base64url');
}

export function decodeCursor(value: string, ids: 'numeric' | 'text' = 'text'): Cursor {
  const invalid = () => validationError([{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }]);
  if (value.length > 200 || !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid();
  const bytes = Buffer.from(value, 'base64url');
  // Node's decoder skips a trailing character that completes no byte: only the canonical spelling is ours.
  if (bytes.toString('base64url') !== value) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [t, k, i] = parsed as unknown[];
  if (typeof t !== 'string' || !ISO.test(t)) throw invalid();
  const ms = `${t.slice(0, 23)}Z`;
  if (Number.isNaN(Date.parse(ms)) || new Date(ms).toISOString() !== ms) throw invalid();
  if (k !== 0 && k !== 1) throw invalid();
  if (typeof i !== 'string' || !ID.test(i) || (ids === 'numeric' && !/^\d{1,18}$/.test(i))) throw invalid();
  // Years PostgreSQL and every list can hold; a cursor of ours is never older than the service.
  if (t < '2000' || t >= '2100') throw invalid();
  return { t, k, i };
}

export function readCursor(value: string | undefined): Cursor | undefined {
  if (!value) return undefined;
  try {
    return decodeCursor(value);
  } catch {
    return undefined;
  }
}

// `seen`: rows before the next page, so that rows keep their position without a count.
export interface PageKey {
  key: bigint;
  seen: number;
}

export function encodePageKey(value: PageKey): string {
  return `n${value.key.toString(36)}.${value.seen.toString(36)}`;
}

const MAX_BIGINT = 9_223_372_036_854_775_807n;

export function decodePageKey(token: string | undefined): PageKey | undefined {
  const match = token ? /^n([0-9a-z]{1,13})\.([0-9a-z]{1,8})$/.exec(token) : null;
  if (!match?.[1] || !match[2]) return undefined;
  let key = 0n;
  for (const c of match[1]) key = key * 36n + BigInt(parseInt(c, 36));
  const seen = parseInt(match[2], 36);
  return key <= MAX_BIGINT && Number.isSafeInteger(seen) ? { key, seen } : undefined;
}

/** The position of a row listed by (created_at, id). */
export function createdAtPosition(row: { created_at: Date; id: string }): Cursor {
  return { t: row.created_at.toISOString(), k: 0, i: row.id };
}

/** One page from `limit` + 1 rows read newest first: the extra row only says there is more. */
export function newestFirstPage<Row, Item>(
  rows: Row[],
  limit: number,
  present: (row: Row) => Item,
  position: (row: Row) => Cursor,
): { object: 'list'; data: Item[]; has_more: boolean; next_cursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const hasMore = rows.length > limit;
  return {
    object: 'list',
    data: shown.map(present),
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? encodeCursor(position(last)) : null,
  };
}

export function dayStart(day: string, plusDays = 0): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + plusDays);
  return date;
}
