import { signOutEverywhere } from '@/lib/accounts/end-sessions';
import { clearSessionCookie, listSessions } from '@/lib/auth/session';
import { portalRoute } from '@/lib/portal/route';
import type { TSessionListResponse, TSessionsEndedResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/account/sessions: the signed-in user's sessions, this one marked `current`.
export const GET = portalRoute(
  async ({ session, user }): Promise<TSessionListResponse> => {
    const sessions = await listSessions({ userId: user.id, currentId: session.id });
    return {
      sessions: sessions.map((s) => ({
        id: s.publicId,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
        expiresAt: s.expiresAt.toISOString(),
        userAgent: s.userAgent,
        address: s.address,
        current: s.current,
      })),
    };
  },
  { permission: 'self' },
);

// DELETE /portal-api/account/sessions: sign out everywhere, this browser included.
export const DELETE = portalRoute(
  async ({ user, origin }): Promise<TSessionsEndedResponse> => {
    const sessionsEnded = await signOutEverywhere({ userId: user.id, origin });
    await clearSessionCookie();
    return { ok: true, sessionsEnded, signedOut: true };
  },
  { permission: 'self' },
);
