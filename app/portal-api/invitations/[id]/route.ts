import { portalRoute } from '@/lib/portal/route';
import type { TInvitationRevokedResponse } from '@/lib/schemas/invitations';
import { revokeInvitation } from '@/lib/teams/invitations';

// DELETE /portal-api/invitations/{id}: revokes an open invitation (its link stops working); another account's id: 404.
export const DELETE = portalRoute<{ id: string }>(
  async ({ accountId, session, params, origin }): Promise<TInvitationRevokedResponse> => {
    await revokeInvitation({ accountId, id: params.id, role: session.role, origin });
    return { ok: true };
  },
  { permission: 'members:manage' },
);
