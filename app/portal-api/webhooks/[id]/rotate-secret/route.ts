import { rotateWebhookSecretOperation } from '@/lib/api/operations/rotate-webhook-secret';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/webhooks/{id}/rotate-secret: a new signing secret, shown in this response only; the old one keeps
// signing for grace_period_seconds (the body may be left out: the API's default overlap, 24 h).
export const POST = portalOperation<{ id: string }>(rotateWebhookSecretOperation, {
  permission: 'webhooks:manage',
  audited: true,
});
