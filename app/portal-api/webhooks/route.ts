import { portalRoute, readBody } from '@/lib/portal/route';
import { ZCreateWebhookRequest } from '@/lib/schemas/webhooks';
import { createWebhookEndpoint } from '@/lib/webhooks/create-webhook-endpoint';
import { listWebhookEndpoints } from '@/lib/webhooks/list-webhook-endpoints';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';

// GET /portal-api/webhooks: the account's endpoints in the selected environment.
export const GET = portalRoute(async ({ accountId, environment }) => {
  const endpoints = await listWebhookEndpoints({ accountId, environment });
  return { items: endpoints.map(presentWebhookEndpoint) };
});

// POST /portal-api/webhooks: register an endpoint; the signing secret is in this response only.
export const POST = portalRoute(async ({ request, accountId, environment }) => {
  const body = await readBody(request, ZCreateWebhookRequest);
  const { endpoint, secret } = await createWebhookEndpoint({ accountId, environment, request: body });
  return { endpoint: presentWebhookEndpoint(endpoint), secret };
});
