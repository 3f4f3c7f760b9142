import { verifySignIn } from '@/lib/accounts/sign-in';
import { createSession } from '@/lib/auth/session';
import { assertSameOrigin, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZSignInRequest } from '@/lib/portal/schemas';

// POST /portal-api/auth/sign-in: e-mail and password, rate-limited per e-mail and per IP.
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZSignInRequest);
    const ip = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || request.headers.get('x-real-ip') || 'local';
    const { userId } = await verifySignIn({ ...input, ip });
    await createSession({ userId });
    return jsonResponse({ ok: true });
  } catch (error) {
    return errorResponse(error);
  }
}
