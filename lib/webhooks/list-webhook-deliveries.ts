import 'server-only';
import { db } from '@/lib/db';
import type { TListWebhookDeliveriesQuery } from '@/lib/schemas/webhooks';
import { findWebhookEndpoint, type EndpointScope } from './find-webhook-endpoint';

interface Row {
  id: bigint;
  message_id: string;
  attempt_number: number;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  success: boolean;
  message_status: string;
  event_id: string;
  event_type: string;
  is_test: boolean;
}

/** The endpoint's attempt log, newest first, a page at a time (cursor: the last attempt id seen). */
export async function listWebhookDeliveries(options: EndpointScope & { query: TListWebhookDeliveriesQuery }) {
  await findWebhookEndpoint(options);
  const limit = options.query.limit ?? 20;
  const before = options.query.cursor ? BigInt(options.query.cursor.slice('att_'.length)) : null;
  const rows = await db.$queryRaw<Row[]>`
    SELECT a.id, a.message_id, a.attempt_number, a.attempted_at, a.status_code, a.duration_ms, a.response_body, a.error,
           a.success, m.status AS message_status, m.event_id, ev.event_type, ev.is_test
    FROM webhook_attempts a
    JOIN webhook_messages m ON m.id = a.message_id
    JOIN webhook_events ev ON ev.id = m.event_id
    WHERE a.endpoint_id = ${options.id} AND (${before}::bigint IS NULL OR a.id < ${before}::bigint)
    ORDER BY a.id DESC
    LIMIT ${limit + 1}::int`;
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    object: 'list',
    data: page.map((row) => ({
      id: `att_${row.id}`,
      object: 'webhook_delivery',
      message_id: row.message_id,
      event_id: row.event_id,
      event_type: row.event_type,
      test: row.is_test,
      attempt: row.attempt_number,
      attempted_at: row.attempted_at.toISOString(),
      success: row.success,
      status_code: row.status_code,
      duration_ms: row.duration_ms,
      response_body: row.response_body,
      error: row.error,
      message_status: row.message_status,
    })),
    has_more: hasMore,
    next_cursor: hasMore && page.length > 0 ? `att_${page.at(-1)?.id}` : null,
  };
}
