import { constantTimeEqual } from '@/lib/auth/tokens';
import { createSession, getSession, switchSessionAccount } from '@/lib/auth/session';
import { AppError } from '@/lib/errors/app-error';
import { webRequestClient } from '@/lib/http/request-client';
import { assertSameOrigin, CSRF_HEADER, errorResponse, jsonResponse, readBody } from '@/lib/portal/route';
import { ZAcceptInvitationRequest, type TInvitationAcceptedResponse } from '@/lib/schemas/invitations';
import { acceptInvitation } from '@/lib/teams/invitations';

// POST /portal-api/auth/accept-invitation {token, password?}: joins the invitation's account and signs this browser
// in to it (a signed-in invited user's session switches to it). Unknown link 404; used, expired or revoked 410 `gone`
// naming which; signed in as someone else 409. docs/decisions/teams.md.
export async function POST(request: Request) {
  try {
    assertSameOrigin(request);
    const input = await readBody(request, ZAcceptInvitationRequest);
    const session = await getSession();
    // Signed in, this acts with the session: the session's CSRF token, as every portal write (the page publishes it).
    if (session && !constantTimeEqual(request.headers.get(CSRF_HEADER) ?? '', session.csrfToken)) {
      throw new AppError('forbidden', 'Missing or wrong CSRF token; reload the page and try again.');
    }
    const { address } = webRequestClient(request.headers);
    const accepted = await acceptInvitation({
      ...input,
      signedIn: session ? { id: session.user.id, email: session.user.email } : null,
      address,
      userAgent: request.headers.get('user-agent'),
    });
    if (session) {
      await switchSessionAccount({ sessionId: session.id, userId: accepted.userId, accountId: accepted.account.id });
    } else {
      await createSession({
        userId: accepted.userId,
        accountId: accepted.account.id,
        client: { address, userAgent: request.headers.get('user-agent') },
      });
    }
    const body: TInvitationAcceptedResponse = {
      ok: true,
      account: accepted.account,
      role: accepted.role,
      alreadyMember: accepted.alreadyMember,
      message: accepted.alreadyMember
        ? `You were already a member of ${accepted.account.name} (as ${accepted.role}); nothing changed.`
        : `You joined ${accepted.account.name} as ${accepted.role}.`,
    };
    return jsonResponse(body);
  } catch (error) {
    return errorResponse(error);
  }
}
