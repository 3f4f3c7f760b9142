import { portalRoute } from '@/lib/portal/route';
import { redeliverMessage } from '@/lib/webhooks/redeliver-message';

// POST /portal-api/webhooks/{id}/deliveries/{deliveryId}/redeliver: send that message again now.
export const POST = portalRoute<{ id: string; deliveryId: string }>(async ({ accountId, environment, params }) =>
  redeliverMessage({ accountId, environment, id: params.id, deliveryId: params.deliveryId }),
);
