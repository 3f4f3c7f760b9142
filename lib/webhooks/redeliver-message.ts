import 'server-only';
import { db, pgTransaction } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import { execute, queryRow, sql } from '@/lib/sql';
import { findWebhookEndpoint, type EndpointScope } from './find-webhook-endpoint';

/** Keeps the webhook-id so receivers can deduplicate; a finished message gets one more attempt, a waiting one is due now. */
export async function redeliverMessage(options: EndpointScope & { deliveryId: string }) {
  const endpoint = await findWebhookEndpoint(options);
  const notFound = new AppError('not_found', `No delivery ${options.deliveryId} for webhook endpoint ${options.id}.`);
  let messageId: string;
  const [, attemptId] = /^att_(\d{1,18})$/.exec(options.deliveryId) ?? [];
  if (attemptId) {
    const row = await db.webhookAttempt.findFirst({
      where: { id: BigInt(attemptId), endpointId: options.id },
      select: { messageId: true },
    });
    if (!row) throw notFound;
    messageId = row.messageId;
  } else if (/^msg_[0-9a-z]{1,64}$/.test(options.deliveryId)) {
    messageId = options.deliveryId;
  } else {
    throw notFound;
  }
  if (!endpoint.enabled)
    throw new AppError('conflict', `Webhook endpoint ${options.id} is disabled; enable it before redelivering.`);

  // SQL in a transaction: the row is locked (FOR UPDATE) while its status decides, and the workers are woken.
  return pgTransaction(async (client) => {
    const current = await queryRow(
      client,
      sql<{
        status: string;
      }>`SELECT status FROM webhook_messages WHERE id = ${messageId} AND endpoint_id = ${options.id} FOR UPDATE`,
    );
    if (!current) throw notFound;
    if (current.status === 'delivering') {
      throw new AppError('conflict', `Message ${messageId} is being delivered right now; look at its attempt log in a moment.`);
    }
    await execute(
      client,
      sql`
        UPDATE webhook_messages
        SET status = 'pending', next_attempt_at = now(), redelivery = ${current.status !== 'pending'}::boolean, updated_at = now()
        WHERE id = ${messageId}`,
    );
    await execute(client, sql`SELECT pg_notify('webhook_messages', '')`);
    return { messageId, status: 'pending' as const };
  });
}
