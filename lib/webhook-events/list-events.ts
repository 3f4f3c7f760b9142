import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { pgPool } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import { dayStart, decodeCursor, newestFirstPage } from '@/lib/pagination/keyset';
import type { TListEventsQuery, TWebhookEvent, TWebhookEventList } from '@/lib/schemas/events';
import type { WebhookEvent } from '@/lib/schemas/webhooks';
import { queryRow, queryRows, sql, type Sql } from '@/lib/sql';
import { messageBody } from '@/lib/webhooks/deliver-message';

// The events API, newest first. Events of one transaction share created_at; seq breaks the tie, so a package's
// received lists after its delivered in a newest-first page.

interface Scope {
  accountId: string;
  environment: Environment;
}

interface EventRow {
  id: string;
  event_type: string;
  payload: unknown;
  is_test: boolean;
  created_at: Date;
  seq: string;
}

function present(row: EventRow): TWebhookEvent {
  return {
    id: row.id,
    object: 'webhook_event',
    type: row.event_type as WebhookEvent,
    created_at: row.created_at.toISOString(),
    test: row.is_test,
    // What a receiver was sent, byte for byte the same JSON as the delivery's body.
    data: JSON.parse(messageBody(row.event_type, row.payload)) as Record<string, unknown>,
  };
}

const scoped = (scope: Scope) =>
  sql<never>`e.account_id = ${scope.accountId}::uuid AND e.environment = ${scope.environment}::"Environment"`;

export async function listEvents(options: Scope & { query: TListEventsQuery }): Promise<TWebhookEventList> {
  const { query } = options;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'numeric');
  const where: Sql<never>[] = [scoped(options)];
  if (query.type) where.push(sql`e.event_type = ${query.type}`);
  if (query.from) where.push(sql`e.created_at >= ${dayStart(query.from)}`);
  if (query.to) where.push(sql`e.created_at < ${dayStart(query.to, 1)}`);
  if (cursor) where.push(sql`(e.created_at, e.seq) < (${cursor.t}::timestamptz, ${cursor.i}::bigint)`);
  const rows = await queryRows(
    pgPool(),
    sql<EventRow>`SELECT e.id, e.event_type, e.payload, e.is_test, e.created_at, e.seq::text AS seq FROM webhook_events e
                  WHERE ${sql.join(where, sql` AND `)}
                  ORDER BY e.created_at DESC, e.seq DESC LIMIT ${query.limit + 1}`,
  );
  return newestFirstPage(rows, query.limit, present, (row) => ({ t: row.created_at.toISOString(), k: 0, i: row.seq }));
}

export async function getEvent(options: Scope & { id: string }): Promise<TWebhookEvent> {
  const row = await queryRow(
    pgPool(),
    sql<EventRow>`SELECT e.id, e.event_type, e.payload, e.is_test, e.created_at, e.seq::text AS seq FROM webhook_events e WHERE ${scoped(options)} AND e.id = ${options.id}`,
  );
  if (!row) throw new AppError('not_found', `No event ${options.id} in this account and environment.`);
  return present(row);
}
