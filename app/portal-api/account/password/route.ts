import { changePassword } from '@/lib/accounts/change-password';
import { webRequestClient } from '@/lib/http/request-client';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZChangePasswordRequest } from '@/lib/schemas/portal';
import type { TPasswordChangedResponse } from '@/lib/schemas/portal-responses';

// POST /portal-api/account/password: the current password and a new one; ends the user's other sessions.
export const POST = portalRoute(
  async ({ request, session, user, origin }): Promise<TPasswordChangedResponse> => {
    const input = await readBody(request, ZChangePasswordRequest);
    const { address } = webRequestClient(request.headers);
    const { sessionsEnded } = await changePassword({ ...input, userId: user.id, sessionId: session.id, address, origin });
    return { ok: true, sessionsEnded };
  },
  { permission: 'self' },
);
