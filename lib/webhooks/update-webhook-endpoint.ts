import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { db } from '@/lib/db';
import type { TUpdateWebhookRequest } from '@/lib/schemas/webhooks';
import { checkEndpointUrl } from './check-endpoint-url';
import { urlHost } from './create-webhook-endpoint';
import { findWebhookEndpoint, notFound, type EndpointScope } from './find-webhook-endpoint';
import { PUBLIC_ENDPOINT_FIELDS } from './present-webhook-endpoint';

/** Enabling clears why it was disabled and its failing run. */
export async function updateWebhookEndpoint(options: EndpointScope & { request: TUpdateWebhookRequest; origin: AuditOrigin }) {
  const { request } = options;
  await findWebhookEndpoint(options);
  if (request.url !== undefined) await checkEndpointUrl(request.url);
  return db.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.updateManyAndReturn({
      where: { id: options.id, accountId: options.accountId, environment: options.environment },
      data: {
        ...(request.url !== undefined ? { url: request.url } : {}),
        ...(request.events !== undefined ? { events: request.events } : {}),
        ...(request.description !== undefined ? { description: request.description } : {}),
        ...(request.enabled !== undefined ? { enabled: request.enabled, disabledReason: null, failingSince: null } : {}),
      },
      select: PUBLIC_ENDPOINT_FIELDS,
    });
    const endpoint = updated[0];
    if (!endpoint) throw notFound(options.id);
    const fields = (['url', 'events', 'description', 'enabled'] as const).filter((field) => request[field] !== undefined);
    await recordAudit(
      options.origin,
      {
        accountId: options.accountId,
        environment: options.environment,
        action: 'webhook.updated',
        target: { type: 'webhook_endpoint', id: options.id },
        details: { fields, url_host: urlHost(endpoint.url), enabled: endpoint.enabled },
      },
      tx,
    );
    return endpoint;
  });
}
