import 'server-only';
import { pgPool } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { dayStart, decodeCursor, newestFirstPage, type Cursor } from '@/lib/pagination/keyset';
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

interface Row {
  id: string;
  /** occurred_at in UTC to the microsecond: the list's position. */
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

function whereOf(accountId: string, filters: AuditFilters, after: Cursor | undefined): Sql<never> {
  const where: Sql<never>[] = [sql`account_id = ${accountId}::uuid`];
  if (filters.action) where.push(sql`action = ${filters.action}`);
  if (filters.actor) where.push(sql`lower(actor_email) = lower(${filters.actor})`);
  if (filters.from) where.push(sql`occurred_at >= ${dayStart(filters.from)}`);
  if (filters.to) where.push(sql`occurred_at < ${dayStart(filters.to, 1)}`);
  if (after) where.push(sql`(occurred_at, id) < (${after.t}::timestamptz, ${after.i}::bigint)`);
  return sql.join(where, sql` AND `);
}

/**
 * Up to `limit` rows after `after` (none: from the newest), newest first. Ordered by the table's columns, not the text
 * `id` the statement selects: as text, id 100 sorted before 99 and the keyset skipped rows.
 */
export async function readAuditRows(options: {
  accountId: string;
  filters: AuditFilters;
  after?: Cursor;
  limit: number;
}): Promise<Row[]> {
  return queryRows(
    pgPool(),
    sql<Row>`SELECT id::text AS id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t, occurred_at, environment, action, actor_kind, actor_label, actor_user_id::text AS actor_user_id,
               actor_email, actor_token_id::text AS actor_token_id, client_address, user_agent, target_type, target_id, details
             FROM audit_events WHERE ${whereOf(options.accountId, options.filters, options.after)}
             ORDER BY audit_events.occurred_at DESC, audit_events.id DESC LIMIT ${options.limit}`,
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

/** The row's place in the list, to the microsecond PostgreSQL stores (rows written in one millisecond stay apart). */
export function auditPosition(row: Row): Cursor {
  return { t: row.t, k: 0, i: row.id };
}

/** One page of the account's audit log. */
export async function listAuditEvents(options: { accountId: string; query: AuditQuery }) {
  const { query } = options;
  const after = query.cursor ? decodeCursor(query.cursor, 'numeric') : undefined;
  const rows = await readAuditRows({ accountId: options.accountId, filters: query, after, limit: query.limit + 1 });
  return newestFirstPage(rows, query.limit, presentAuditEvent, auditPosition);
}
