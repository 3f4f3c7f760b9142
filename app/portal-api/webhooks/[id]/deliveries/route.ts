import { portalRoute } from '@/lib/portal/route';
import { searchParamsObject } from '@/lib/portal-queries/list-params';
import { ZListWebhookDeliveriesQuery } from '@/lib/schemas/webhooks';
import { parseOperation } from '@/lib/schemas/parse';
import { listWebhookDeliveries } from '@/lib/webhooks/list-webhook-deliveries';

// GET /portal-api/webhooks/{id}/deliveries?limit&cursor: every attempt, newest first.
export const GET = portalRoute<{ id: string }>(async ({ request, accountId, environment, params }) => {
  const query = parseOperation(ZListWebhookDeliveriesQuery, searchParamsObject(request.url));
  return listWebhookDeliveries({ accountId, environment, id: params.id, query });
});
