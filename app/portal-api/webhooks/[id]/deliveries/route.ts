import { portalRoute } from '@/lib/portal/route';
import { portalQuery } from '@/lib/portal-lifecycle/query';
import { ZListWebhookDeliveriesQuery } from '@/lib/schemas/webhooks';
import { parseOperation } from '@/lib/schemas/parse';
import { listWebhookDeliveries } from '@/lib/webhooks/list-webhook-deliveries';

// GET /portal-api/webhooks/{id}/deliveries?limit&cursor&outcome: every attempt, newest first; read as the API reads it.
export const GET = portalRoute<{ id: string }>(async ({ request, accountId, environment, params }) => {
  const query = parseOperation(ZListWebhookDeliveriesQuery, portalQuery(request.url));
  return listWebhookDeliveries({ accountId, environment, id: params.id, query });
});
