import { completeSignUp } from '@/lib/accounts/sign-up';
import { createSession } from '@/lib/auth/session';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZVerifySignUpRequest } from '@/lib/schemas/portal';

// POST /portal-api/auth/verify-email: a sign-up link's token (and another company name, when the first was taken
// meanwhile); creates the account, its user and the owner's membership, and signs this browser in.
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZVerifySignUpRequest);
    const { userId, accountId } = await completeSignUp(input);
    const { address } = webRequestClient(request.headers);
    await createSession({ userId, accountId, client: { address, userAgent: request.headers.get('user-agent') } });
    return jsonResponse({ ok: true }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
