import { requestPasswordReset } from '@/lib/accounts/password-reset';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZForgotPasswordRequest } from '@/lib/schemas/portal';
import type { TForgotPasswordResponse } from '@/lib/schemas/portal-responses';

// POST /portal-api/auth/forgot-password: mails a reset link if the e-mail has an account, and answers the same
// either way; limited per address and per e-mail (lib/auth/mail-limiter.ts).
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZForgotPasswordRequest);
    const { message } = await requestPasswordReset({ ...input, address: webRequestClient(request.headers).address });
    const body: TForgotPasswordResponse = { ok: true, message };
    return jsonResponse(body, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
