import { requestSignUp } from '@/lib/accounts/sign-up';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZSignUpRequest } from '@/lib/schemas/portal';
import type { TSignUpResponse } from '@/lib/schemas/portal-responses';

// POST /portal-api/auth/sign-up: mails a link that confirms the e-mail (or, for one that has an account, a mail
// saying so) and answers "check your inbox" either way; nothing is created and nobody is signed in until the link
// is followed (POST /portal-api/auth/verify-email). Limited per address and per e-mail (lib/auth/mail-limiter.ts).
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZSignUpRequest);
    const { message } = await requestSignUp({ ...input, address: webRequestClient(request.headers).address });
    const body: TSignUpResponse = { ok: true, message };
    return jsonResponse(body, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
