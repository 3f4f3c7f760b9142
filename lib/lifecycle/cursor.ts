import { validationError } from '@/lib/errors/app-error';

/** A list position: created_at (ISO, ms), the branch (0 container, 1 daily) and the row id. */
export interface Cursor {
  t: string;
  k: number;
  i: string;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.t, cursor.k, cursor.i])).toString('base64url');
}

/** Opaque to clients; anything that is not one of ours is a 422 naming `cursor`, never a query. */
export function decodeCursor(value: string, ids: 'numeric' | 'text' = 'text'): Cursor {
  const invalid = () => validationError([{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }]);
  if (value.length > 200 || !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [t, k, i] = parsed as unknown[];
  if (typeof t !== 'string' || !ISO_MS.test(t) || Number.isNaN(Date.parse(t)) || new Date(t).toISOString() !== t) throw invalid();
  if (k !== 0 && k !== 1) throw invalid();
  if (typeof i !== 'string' || !ID.test(i) || (ids === 'numeric' && !/^\d{1,18}$/.test(i))) throw invalid();
  // Years PostgreSQL and every list can hold; a cursor of ours is never older than the service.
  if (t < '2000' || t >= '2100') throw invalid();
  return { t, k, i };
}
