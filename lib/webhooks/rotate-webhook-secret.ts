import 'server-only';
import { db } from '@/lib/db';
import { notFound, type EndpointScope } from './find-webhook-endpoint';
import { generateWebhookSecret } from './generate-secret';
import { PUBLIC_ENDPOINT_FIELDS } from './present-webhook-endpoint';

/**
 * Replaces the signing secret at once; attempts from now on (retries included) are signed with the
 * new one. The new secret is shown this once.
 */
export async function rotateWebhookSecret(scope: EndpointScope) {
  const secret = generateWebhookSecret();
  const updated = await db.webhookEndpoint.updateManyAndReturn({
    where: { id: scope.id, accountId: scope.accountId, environment: scope.environment },
    data: { secret },
    select: PUBLIC_ENDPOINT_FIELDS,
  });
  if (!updated[0]) throw notFound(scope.id);
  return { endpoint: updated[0], secret };
}
