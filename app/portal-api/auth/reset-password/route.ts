import { resetPassword } from '@/lib/accounts/password-reset';
import { createSession } from '@/lib/auth/session';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZResetPasswordRequest } from '@/lib/schemas/portal';
import type { TPasswordChangedResponse } from '@/lib/schemas/portal-responses';

// POST /portal-api/auth/reset-password: a reset link's token and a new password; ends every session of the
// user and signs this browser in afresh. A used, expired or unknown link: 422 on `token`.
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZResetPasswordRequest);
    const { address } = webRequestClient(request.headers);
    const { userId, sessionsEnded } = await resetPassword({ ...input, address, userAgent: request.headers.get('user-agent') });
    await createSession({ userId, client: { address, userAgent: request.headers.get('user-agent') } });
    const body: TPasswordChangedResponse = { ok: true, sessionsEnded };
    return jsonResponse(body);
  } catch (error) {
    return errorResponse(error);
  }
}
