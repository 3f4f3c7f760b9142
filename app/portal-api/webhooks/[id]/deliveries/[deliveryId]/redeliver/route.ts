import { redeliverWebhookOperation } from '@/lib/api/operations/redeliver-webhook';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/webhooks/{id}/deliveries/{deliveryId}/redeliver: send that message again now (202).
export const POST = portalOperation<{ id: string; deliveryId: string }>(redeliverWebhookOperation, {
  permission: 'webhooks:manage',
});
