import { revokeApiToken } from '@/lib/accounts/revoke-api-token';
import { portalRoute } from '@/lib/portal/route';

// DELETE /portal-api/tokens/:id: revoke (the row stays, with revokedAt, for the audit trail).
export const DELETE = portalRoute<{ id: string }>(async ({ accountId, environment, params }) =>
  revokeApiToken({ accountId, environment, id: params.id }),
);
