import 'server-only';
import { pgTransaction } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import { PACKAGE_SORTING_EVENT, type TPackageSortingPayload } from '@/lib/schemas/webhooks';
import { enqueueEvent } from './enqueue-event';
import { findWebhookEndpoint, type EndpointScope } from './find-webhook-endpoint';

/**
 * Queues a package.sorting event for this endpoint alone, marked as a test: stored with is_test, and
 * sent with the header `x-carrier-test-event: true`. Its payload has the real shape with sample values.
 */
export async function sendTestEvent(scope: EndpointScope) {
  const endpoint = await findWebhookEndpoint(scope);
  if (!endpoint.enabled)
    throw new AppError('conflict', `Webhook endpoint ${scope.id} is disabled; enable it before sending a test event.`);
  const payload: TPackageSortingPayload = {
    manifest_id: 'MAN-TEST00000000000000',
    package_count: 1,
    tracking_numbers: ['TEST0000000001'],
  };
  // In a transaction: an endpoint not subscribed to the event type gets a 409 and leaves no event behind.
  return pgTransaction(async (client) => {
    const { eventId, messageIds } = await enqueueEvent(client, {
      accountId: scope.accountId,
      environment: scope.environment,
      eventType: PACKAGE_SORTING_EVENT,
      payload,
      isTest: true,
      endpointId: scope.id,
    });
    const [messageId] = messageIds;
    if (messageId === undefined)
      throw new AppError('conflict', `Webhook endpoint ${scope.id} is not subscribed to ${PACKAGE_SORTING_EVENT}.`);
    return { eventId, messageId };
  });
}
