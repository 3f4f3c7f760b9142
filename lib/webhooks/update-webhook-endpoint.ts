import 'server-only';
import { db } from '@/lib/db';
import type { TUpdateWebhookRequest } from '@/lib/schemas/webhooks';
import { checkEndpointUrl } from './check-endpoint-url';
import { findWebhookEndpoint, notFound, type EndpointScope } from './find-webhook-endpoint';
import { PUBLIC_ENDPOINT_FIELDS } from './present-webhook-endpoint';

/**
 * Changes URL, events, description or enabled. Enabling clears why it was disabled and its failing
 * run; disabling by hand records no reason (the portal shows it as switched off).
 */
export async function updateWebhookEndpoint(options: EndpointScope & { request: TUpdateWebhookRequest }) {
  const { request } = options;
  await findWebhookEndpoint(options);
  if (request.url !== undefined) await checkEndpointUrl(request.url);
  const updated = await db.webhookEndpoint.updateManyAndReturn({
    where: { id: options.id, accountId: options.accountId, environment: options.environment },
    data: {
      ...(request.url !== undefined ? { url: request.url } : {}),
      ...(request.events !== undefined ? { events: request.events } : {}),
      ...(request.description !== undefined ? { description: request.description } : {}),
      ...(request.enabled !== undefined ? { enabled: request.enabled, disabledReason: null, failingSince: null } : {}),
    },
    select: PUBLIC_ENDPOINT_FIELDS,
  });
  if (!updated[0]) throw notFound(options.id);
  return updated[0];
}
