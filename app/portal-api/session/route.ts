import { destroySession } from '@/lib/auth/session';
import { portalRoute } from '@/lib/portal/route';
import type { TSessionResponse, TSignOutResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/session: who is signed in, and in which environment.
export const GET = portalRoute(
  ({ user, session, environment }): TSessionResponse => ({
    user,
    account: session.account,
    role: session.role,
    environment,
  }),
  { permission: 'self' },
);

// DELETE /portal-api/session: sign out (from a tab of any account the user switched between).
export const DELETE = portalRoute(
  async (): Promise<TSignOutResponse> => {
    await destroySession();
    return { ok: true };
  },
  { permission: 'self', anyAccount: true },
);
