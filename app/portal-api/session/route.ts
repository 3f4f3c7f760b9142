import { destroySession } from '@/lib/auth/session';
import { portalRoute } from '@/lib/portal/route';

// GET /portal-api/session: who is signed in, and in which environment.
export const GET = portalRoute(({ user, session, environment }) => ({
  user,
  account: session.account,
  environment,
}));

// DELETE /portal-api/session: sign out.
export const DELETE = portalRoute(async () => {
  await destroySession();
  return { ok: true };
});
