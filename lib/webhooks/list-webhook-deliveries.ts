import 'server-only';
import { db } from '@/lib/db';
import type { TListWebhookDeliveriesQuery } from '@/lib/schemas/webhooks';
import { findWebhookEndpoint, type EndpointScope } from './find-webhook-endpoint';

/** The endpoint's attempt log, newest first, a page at a time (cursor: the last attempt id seen). */
export async function listWebhookDeliveries(options: EndpointScope & { query: TListWebhookDeliveriesQuery }) {
  await findWebhookEndpoint(options);
  const limit = options.query.limit ?? 20;
  const before = options.query.cursor ? BigInt(options.query.cursor.slice('att_'.length)) : null;
  // An ordinary read: Prisma (the index on (endpoint_id, id) pages it).
  const rows = await db.webhookAttempt.findMany({
    where: { endpointId: options.id, ...(before === null ? {} : { id: { lt: before } }) },
    orderBy: { id: 'desc' },
    take: limit + 1,
    select: {
      id: true,
      messageId: true,
      attemptNumber: true,
      attemptedAt: true,
      statusCode: true,
      durationMs: true,
      responseBody: true,
      error: true,
      success: true,
      message: { select: { status: true, eventId: true, event: { select: { eventType: true, isTest: true } } } },
    },
  });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    object: 'list',
    data: page.map((row) => ({
      id: `att_${row.id}`,
      object: 'webhook_delivery',
      message_id: row.messageId,
      event_id: row.message.eventId,
      event_type: row.message.event.eventType,
      test: row.message.event.isTest,
      attempt: row.attemptNumber,
      attempted_at: row.attemptedAt.toISOString(),
      success: row.success,
      status_code: row.statusCode,
      duration_ms: row.durationMs,
      response_body: row.responseBody,
      error: row.error,
      message_status: row.message.status,
    })),
    has_more: hasMore,
    next_cursor: hasMore && page.length > 0 ? `att_${page.at(-1)?.id}` : null,
  };
}
