// Keyset cursors of the portal's lists: an opaque token naming the row a page starts after (or
// before). A token that does not decode is no cursor at all (the first page), as a pager link that is
// off always was.

/** (created_at, id): the manifests list's order, newest first. */
export interface TimeKey {
  createdAt: Date;
  id: string;
}

export function encodeTimeKey(key: TimeKey): string {
  return Buffer.from(`${key.createdAt.getTime()}|${key.id}`, 'utf8').toString('base64url');
}

/** A manifest's created_at is in the service's years (as the API's cursors, lib/lifecycle/cursor.ts). */
const EARLIEST_KEY = Date.UTC(2000, 0, 1);
const LATEST_KEY = Date.UTC(2100, 0, 1);

export function decodeTimeKey(token: string | undefined): TimeKey | undefined {
  if (!token || token.length > 200 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const match = /^(-?\d{1,15})\|([A-Za-z0-9_-]{1,100})$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const createdAt = new Date(Number(match[1]));
  // Only times a row of ours can have: a year PostgreSQL cannot hold (before 4713 BC, or any negative year as
  // the driver writes it) made the list's query fail, a 500 for a pager link anyone can edit.
  const time = createdAt.getTime();
  return Number.isNaN(time) || time < EARLIEST_KEY || time >= LATEST_KEY ? undefined : { createdAt, id: match[2] };
}

/**
 * A place in a manifest's packages: the last row's key (container position or daily package id) and
 * how many rows came before the next page (so that rows keep their position without a count).
 */
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
