import { endOneSession } from '@/lib/accounts/end-sessions';
import { clearSessionCookie } from '@/lib/auth/session';
import { AppError } from '@/lib/errors/app-error';
import { portalRoute } from '@/lib/portal/route';
import type { TSessionsEndedResponse } from '@/lib/schemas/portal-responses';

// DELETE /portal-api/account/sessions/:id: ends one of the user's sessions (this one too: then signed out).
export const DELETE = portalRoute<{ id: string }>(
  async ({ session, user, params, origin }): Promise<TSessionsEndedResponse> => {
    if (!(await endOneSession({ userId: user.id, publicId: params.id, origin }))) {
      throw new AppError('not_found', 'You have no session with this id.');
    }
    const signedOut = params.id === session.publicId;
    if (signedOut) await clearSessionCookie();
    return { ok: true, sessionsEnded: 1, signedOut };
  },
  { permission: 'self' },
);
