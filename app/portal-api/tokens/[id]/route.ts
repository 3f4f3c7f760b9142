import { revokeApiToken } from '@/lib/accounts/revoke-api-token';
import { portalRoute } from '@/lib/portal/route';
import type { TRevokedApiTokenResponse } from '@/lib/schemas/portal-responses';

// DELETE /portal-api/tokens/:id: revoke (the row stays, with revokedAt, for the audit trail).
export const DELETE = portalRoute<{ id: string }>(
  async ({ accountId, environment, params, origin }): Promise<TRevokedApiTokenResponse> => {
    const row = await revokeApiToken({ accountId, environment, id: params.id, origin });
    return { id: row.id, revokedAt: row.revokedAt?.toISOString() ?? null };
  },
  { permission: 'tokens:manage', audited: true },
);
