import 'server-only';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import { enqueueEvent, type PackageSortingPayload } from '@/lib/packages/create-package-manifest';
import { PACKAGE_SORTING_EVENT } from '@/lib/schemas/webhooks';
import { findWebhookEndpoint, type EndpointScope } from './find-webhook-endpoint';

/**
 * Queues a package.sorting event for this endpoint alone, marked as a test: stored with is_test, and
 * sent with the header `x-carrier-test-event: true`. Its payload has the real shape with sample values.
 */
export async function sendTestEvent(scope: EndpointScope) {
  const endpoint = await findWebhookEndpoint(scope);
  if (!endpoint.enabled)
    throw new AppError('conflict', `Webhook endpoint ${scope.id} is disabled; enable it before sending a test event.`);
  const payload: PackageSortingPayload = {
    manifest_id: 'MAN-TEST00000000000000',
    package_count: 1,
    tracking_numbers: ['TEST0000000001'],
  };
  return db.$transaction(async (tx) => {
    const eventId = await enqueueEvent(tx, {
      accountId: scope.accountId,
      environment: scope.environment,
      eventType: PACKAGE_SORTING_EVENT,
      payload,
      isTest: true,
      endpointId: scope.id,
    });
    const message = await tx.webhookMessage.findFirst({ where: { eventId }, select: { id: true } });
    if (!message) throw new AppError('conflict', `Webhook endpoint ${scope.id} is not subscribed to ${PACKAGE_SORTING_EVENT}.`);
    return { eventId, messageId: message.id };
  });
}
