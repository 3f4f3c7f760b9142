import 'server-only';
import { pgPool } from '@/lib/db';
import { validationError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { queryRows, sql, type Sql } from '@/lib/sql';
import type { AuditAction, AuditActorKind } from './actions';

// Reading the audit log: one account's rows (both environments and the account's own), newest first, in keyset pages
// along audit_events_account_occurred_idx (account_id, occurred_at DESC, id DESC), never OFFSET. Rows with the same
// instant are ordered by id, so a page boundary between them neither repeats nor skips one.

export interface AuditFilters {
  action?: AuditAction;
  /** The actor's e-mail, exactly (case-insensitive). */
  actor?: string;
  /** UTC days, inclusive. */
  from?: string;
  to?: string;
}

export interface AuditQuery extends AuditFilters {
  limit: number;
  cursor?: string;
}

export interface AuditEventView {
  id: string;
  object: 'audit_event';
  occurred_at: string;
  environment: Environment | null;
  action: string;
  actor: { kind: AuditActorKind; label: string; user_id: string | null; email: string | null; token_id: string | null };
  client_address: string | null;
  user_agent: string | null;
  target: { type: string; id: string } | null;
  details: Record<string, unknown>;
}

export interface AuditPosition {
  /** occurred_at as PostgreSQL writes it (exact to the microsecond it stores). */
  t: string;
  id: string;
}

interface Row {
  id: string;
  t: string;
  occurred_at: Date;
  environment: Environment | null;
  action: string;
  actor_kind: AuditActorKind;
  actor_label: string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_token_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
}

export function encodeAuditCursor(position: AuditPosition): string {
  return Buffer.from(JSON.stringify([position.t, position.id])).toString('base64url');
}

/** A cursor of ours, or a 422 naming `cursor`: nothing else reaches the query. */
export function decodeAuditCursor(value: string): AuditPosition {
  const invalid = () => validationError([{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }]);
  if (value.length > 200 || !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalid();
  const [t, id] = parsed as unknown[];
  // occurred_at as PostgreSQL wrote it: 2026-06-15 12:00:00.123+00. Checked as a date here (a 13th month must never
  // reach the cast, which would fail the query), then passed on as it is, exact to the microsecond.
  const match =
    typeof t === 'string' ? /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)([+-]\d{2})(:\d{2})?$/.exec(t) : null;
  if (!match || typeof t !== 'string') throw invalid();
  const day = Date.parse(`${match[1]}T00:00:00Z`);
  const valid =
    !Number.isNaN(day) &&
    new Date(day).toISOString().slice(0, 10) === match[1] &&
    !Number.isNaN(Date.parse(`${match[1]}T${match[2]!.slice(0, 12)}${match[3]}${match[4] ?? ':00'}`));
  if (!valid || match[1]! < '2000' || match[1]! >= '2100') throw invalid();
  if (typeof id !== 'string' || !/^\d{1,18}$/.test(id)) throw invalid();
  return { t, id };
}

function dayStart(day: string, plusDays = 0): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + plusDays);
  return date;
}

function whereOf(accountId: string, filters: AuditFilters, after: AuditPosition | undefined): Sql<never> {
  const where: Sql<never>[] = [sql`account_id = ${accountId}::uuid`];
  if (filters.action) where.push(sql`action = ${filters.action}`);
  if (filters.actor) where.push(sql`lower(actor_email) = lower(${filters.actor})`);
  if (filters.from) where.push(sql`occurred_at >= ${dayStart(filters.from)}`);
  if (filters.to) where.push(sql`occurred_at < ${dayStart(filters.to, 1)}`);
  if (after) where.push(sql`(occurred_at, id) < (${after.t}::timestamptz, ${after.id}::bigint)`);
  return sql.join(where, sql` AND `);
}

/** Up to `limit` rows after `after` (none: from the newest), newest first. */
export async function readAuditRows(options: {
  accountId: string;
  filters: AuditFilters;
  after?: AuditPosition;
  limit: number;
}): Promise<Row[]> {
  return queryRows(
    pgPool(),
    sql<Row>`SELECT id::text AS id, occurred_at::text AS t, occurred_at, environment, action, actor_kind, actor_label, actor_user_id::text AS actor_user_id,
               actor_email, actor_token_id::text AS actor_token_id, client_address, user_agent, target_type, target_id, details
             FROM audit_events WHERE ${whereOf(options.accountId, options.filters, options.after)}
             ORDER BY occurred_at DESC, id DESC LIMIT ${options.limit}`,
  );
}

export function presentAuditEvent(row: Row): AuditEventView {
  return {
    id: row.id,
    object: 'audit_event',
    occurred_at: row.occurred_at.toISOString(),
    environment: row.environment,
    action: row.action,
    actor: {
      kind: row.actor_kind,
      label: row.actor_label,
      user_id: row.actor_user_id,
      email: row.actor_email,
      token_id: row.actor_token_id,
    },
    client_address: row.client_address,
    user_agent: row.user_agent,
    target: row.target_type && row.target_id ? { type: row.target_type, id: row.target_id } : null,
    details: row.details,
  };
}

export type AuditRow = Row;

/** One page of the account's audit log. */
export async function listAuditEvents(options: { accountId: string; query: AuditQuery }) {
  const { query } = options;
  const after = query.cursor ? decodeAuditCursor(query.cursor) : undefined;
  const rows = await readAuditRows({ accountId: options.accountId, filters: query, after, limit: query.limit + 1 });
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  const hasMore = rows.length > query.limit;
  return {
    object: 'list' as const,
    data: shown.map(presentAuditEvent),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeAuditCursor({ t: last.t, id: last.id }) : null,
  };
}
