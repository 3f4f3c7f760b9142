import 'server-only';
import { db } from '@/lib/db';
import { decodeCursor, newestFirstPage } from '@/lib/pagination/keyset';
import {
  WEBHOOK_MESSAGE_STATUSES,
  type TListWebhookDeliveriesQuery,
  type TWebhookDeliveryList,
  type WebhookMessageStatus,
} from '@/lib/schemas/webhooks';
import { messageBody } from './deliver-message';
import { findWebhookEndpoint, type EndpointScope } from './find-webhook-endpoint';

/** The first 16 KB of the body an attempt sent is shown in the log (a manifest's 5,000 tracking numbers are ~100 KB). */
export const REQUEST_LOG_BYTES = 16_384;

function truncateUtf8(text: string, bytes: number): string {
  const buffer = Buffer.from(text);
  if (buffer.length <= bytes) return text;
  // Decoding a cut multi-byte character gives U+FFFD at the end: drop it.
  return buffer
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

function headersOf(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, text] of Object.entries(value)) if (typeof text === 'string') headers[name] = text;
  }
  return headers;
}

function messageStatus(status: string): WebhookMessageStatus {
  const known = WEBHOOK_MESSAGE_STATUSES.find((s) => s === status);
  if (known === undefined)
    throw new Error(`A webhook message has the status ${JSON.stringify(status)}, which the queue never writes.`);
  return known;
}

/** The endpoint's attempt log, newest first, each with what it sent (the body rebuilt as deliver-message.ts builds it). */
export async function listWebhookDeliveries(
  options: EndpointScope & { query: TListWebhookDeliveriesQuery },
): Promise<TWebhookDeliveryList> {
  await findWebhookEndpoint(options);
  const limit = options.query.limit ?? 20;
  const after = options.query.cursor ? decodeCursor(options.query.cursor, 'numeric') : undefined;
  const before = after ? BigInt(after.i) : null;
  const outcome = options.query.outcome;
  const rows = await db.webhookAttempt.findMany({
    where: {
      endpointId: options.id,
      ...(outcome === undefined ? {} : { success: outcome === 'succeeded' }),
      ...(before === null ? {} : { id: { lt: before } }),
    },
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
      requestHeaders: true,
      error: true,
      success: true,
      message: {
        select: {
          status: true,
          nextAttemptAt: true,
          eventId: true,
          event: { select: { eventType: true, isTest: true, payload: true } },
        },
      },
    },
  });
  return newestFirstPage(
    rows,
    limit,
    (row) => {
      const body = row.requestHeaders === null ? null : messageBody(row.message.event.eventType, row.message.event.payload);
      return {
        id: `att_${row.id}`,
        object: 'webhook_delivery' as const,
        message_id: row.messageId,
        event_id: row.message.eventId,
        event_type: row.message.event.eventType,
        test: row.message.event.isTest,
        attempt: row.attemptNumber,
        attempted_at: row.attemptedAt.toISOString(),
        success: row.success,
        status_code: row.statusCode,
        duration_ms: row.durationMs,
        request:
          body === null
            ? null
            : {
                headers: headersOf(row.requestHeaders),
                body: truncateUtf8(body, REQUEST_LOG_BYTES),
                body_bytes: Buffer.byteLength(body),
              },
        response_body: row.responseBody,
        error: row.error,
        message_status: messageStatus(row.message.status),
        next_attempt_at: row.message.status === 'pending' ? row.message.nextAttemptAt.toISOString() : null,
      };
    },
    (row) => ({ t: row.attemptedAt.toISOString(), k: 0, i: String(row.id) }),
  );
}
