import { portalRoute, readBody } from '@/lib/portal/route';
import { ZUpdateWebhookRequest } from '@/lib/schemas/webhooks';
import { deleteWebhookEndpoint } from '@/lib/webhooks/delete-webhook-endpoint';
import { findWebhookEndpoint } from '@/lib/webhooks/find-webhook-endpoint';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { updateWebhookEndpoint } from '@/lib/webhooks/update-webhook-endpoint';

type Params = { id: string };

// GET /portal-api/webhooks/{id}
export const GET = portalRoute<Params>(async ({ accountId, environment, params }) =>
  presentWebhookEndpoint(await findWebhookEndpoint({ accountId, environment, id: params.id })),
);

// PATCH /portal-api/webhooks/{id}: url, events, description or enabled.
export const PATCH = portalRoute<Params>(async ({ request, accountId, environment, params }) => {
  const body = await readBody(request, ZUpdateWebhookRequest);
  return presentWebhookEndpoint(await updateWebhookEndpoint({ accountId, environment, id: params.id, request: body }));
});

// DELETE /portal-api/webhooks/{id}: the endpoint and its delivery log.
export const DELETE = portalRoute<Params>(async ({ accountId, environment, params }) => {
  await deleteWebhookEndpoint({ accountId, environment, id: params.id });
  return { id: params.id, deleted: true };
});
