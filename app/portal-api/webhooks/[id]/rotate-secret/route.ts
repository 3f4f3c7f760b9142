import { portalRoute } from '@/lib/portal/route';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';

// POST /portal-api/webhooks/{id}/rotate-secret: a new signing secret, shown in this response only.
export const POST = portalRoute<{ id: string }>(async ({ accountId, environment, params }) => {
  const { endpoint, secret } = await rotateWebhookSecret({ accountId, environment, id: params.id });
  return { endpoint: presentWebhookEndpoint(endpoint), secret };
});
