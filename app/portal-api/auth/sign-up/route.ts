import { signUp } from '@/lib/accounts/sign-up';
import { createSession } from '@/lib/auth/session';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZSignUpRequest } from '@/lib/schemas/portal';

// POST /portal-api/auth/sign-up: creates the account and its first user, then signs in;
// limited per address (lib/auth/sign-up-limiter.ts).
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZSignUpRequest);
    const { address } = webRequestClient(request.headers);
    const { userId } = await signUp({ ...input, address });
    await createSession({ userId, client: { address, userAgent: request.headers.get('user-agent') } });
    return jsonResponse({ ok: true }, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
