import { portalRoute } from '@/lib/portal/route';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';

// POST /portal-api/webhooks/{id}/rotate-secret: a new signing secret, shown in this response only; the
// old one keeps signing for the API's default overlap (24 h).
export const POST = portalRoute<{ id: string }>(async ({ accountId, environment, params }) => {
  const { endpoint, secret, previousSecretExpiresAt } = await rotateWebhookSecret({ accountId, environment, id: params.id });
  return { endpoint: presentWebhookEndpoint(endpoint), secret, previousSecretExpiresAt: previousSecretExpiresAt?.toISOString() ?? null };
});
