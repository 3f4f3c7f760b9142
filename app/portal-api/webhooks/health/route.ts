import { portalRoute } from '@/lib/portal/route';
import type { TWebhookHealthResponse } from '@/lib/schemas/portal-responses';
import { readEndpointHealth } from '@/lib/webhooks/read-endpoint-health';

// GET /portal-api/webhooks/health: each endpoint's last delivery attempt and failure streak, for the webhook list.
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TWebhookHealthResponse> => ({
    endpoints: (await readEndpointHealth({ accountId, environment })).map((row) => ({
      ...row,
      lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
      failingSince: row.failingSince?.toISOString() ?? null,
    })),
  }),
  { permission: 'webhooks:manage' },
);
