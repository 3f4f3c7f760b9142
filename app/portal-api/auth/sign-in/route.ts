import { verifySignIn } from '@/lib/accounts/sign-in';
import { createSession } from '@/lib/auth/session';
import { clientAddress } from '@/lib/http/client-address';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZSignInRequest } from '@/lib/portal/schemas';

// POST /portal-api/auth/sign-in: e-mail and password, rate-limited per e-mail and per IP.
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZSignInRequest);
    const ip = clientAddress(request.headers.get('x-forwarded-for'), undefined) ?? 'unknown';
    const { userId } = await verifySignIn({ ...input, ip });
    await createSession({ userId });
    return jsonResponse({ ok: true });
  } catch (error) {
    return errorResponse(error);
  }
}
