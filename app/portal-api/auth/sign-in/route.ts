import { signIn } from '@/lib/accounts/sign-in';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZSignInRequest } from '@/lib/schemas/portal';

// POST /portal-api/auth/sign-in: e-mail and password, limited per (e-mail, address) and per address,
// slowed per e-mail (lib/auth/sign-in-limiter.ts); the sign-in and a wrong password are in the audit log (lib/audit).
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZSignInRequest);
    const { address } = webRequestClient(request.headers);
    await signIn({ ...input, client: { address, userAgent: request.headers.get('user-agent') } });
    return jsonResponse({ ok: true });
  } catch (error) {
    return errorResponse(error);
  }
}
