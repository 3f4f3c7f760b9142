import { portalRoute } from '@/lib/portal/route';
import { sendTestEvent } from '@/lib/webhooks/send-test-event';

// POST /portal-api/webhooks/{id}/test: queue a test package.sorting event for this endpoint.
export const POST = portalRoute<{ id: string }>(async ({ accountId, environment, params }) =>
  sendTestEvent({ accountId, environment, id: params.id }),
);
