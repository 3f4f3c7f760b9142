import { portalRoute } from '@/lib/portal/route';
import type { TMemberListResponse } from '@/lib/schemas/portal-responses';
import { listMembers } from '@/lib/teams/members';

// GET /portal-api/members: the account's members (the same in test and live), with their roles; `you` is the caller.
export const GET = portalRoute(
  async ({ accountId, user }): Promise<TMemberListResponse> => ({
    members: (await listMembers(accountId)).map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString(), you: m.userId === user.id })),
  }),
  { permission: 'data:read' },
);
