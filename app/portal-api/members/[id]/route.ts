import { clearSessionCookie } from '@/lib/auth/session';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZChangeMemberRequest, ZRemoveMemberRequest } from '@/lib/schemas/portal';
import type { TMemberChangeResponse } from '@/lib/schemas/portal-responses';
import { changeMember, type MemberChangeResult } from '@/lib/teams/members';

// A member of the account, by membership id (lib/teams/members.ts decides who may change whom, and keeps the last owner).

const answer = (result: MemberChangeResult): TMemberChangeResponse => ({
  id: result.membershipId,
  email: result.email,
  previousRole: result.previousRole,
  role: result.role,
  left: result.left,
  sessionsEnded: result.sessionsEnded,
  tokensRevoked: result.tokensRevoked,
  tokensKept: result.tokensKept,
});

// PATCH /portal-api/members/{id} {role}: change a member's role; making or unmaking an owner needs owners:manage.
export const PATCH = portalRoute<{ id: string }>(
  async ({ request, session, accountId, user, params, origin }) => {
    const { role } = await readBody(request, ZChangeMemberRequest);
    return answer(
      await changeMember({
        actor: { userId: user.id, accountId, role: session.role },
        membershipId: params.id,
        change: { kind: 'role', role },
        origin,
      }),
    );
  },
  { permission: 'members:manage' },
);

// DELETE /portal-api/members/{id} {tokens?: 'revoke' | 'keep'}: remove a member (members:manage, owners:manage for an
// owner), or leave the account (your own membership: any member, hence 'self' here and the check in changeMember).
export const DELETE = portalRoute<{ id: string }>(
  async ({ request, session, accountId, user, params, origin }) => {
    const { tokens } = await readBody(request, ZRemoveMemberRequest);
    const result = await changeMember({
      actor: { userId: user.id, accountId, role: session.role },
      membershipId: params.id,
      change: { kind: 'remove', tokens },
      origin,
    });
    // Leaving ended this session too: its cookie goes with it.
    if (result.left) await clearSessionCookie();
    return answer(result);
  },
  { permission: 'self' },
);
