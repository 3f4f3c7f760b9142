import 'server-only';
import { db } from '@/lib/db';
import { notFound, type EndpointScope } from './find-webhook-endpoint';

/** Deletes the endpoint with its queued messages and attempt log (an attempt in flight still ends). */
export async function deleteWebhookEndpoint(scope: EndpointScope): Promise<void> {
  const { count } = await db.webhookEndpoint.deleteMany({
    where: { id: scope.id, accountId: scope.accountId, environment: scope.environment },
  });
  if (count === 0) throw notFound(scope.id);
}
