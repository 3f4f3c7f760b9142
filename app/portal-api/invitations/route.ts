import { webRequestClient } from '@/lib/http/request-client';
import { jsonResponse, portalRoute, readBody } from '@/lib/portal/route';
import {
  ZCreateInvitationRequest,
  type TInvitationCreatedResponse,
  type TInvitationListResponse,
} from '@/lib/schemas/invitations';
import { createInvitation, INVITATION_HOURS, listInvitations } from '@/lib/teams/invitations';

// GET /portal-api/invitations: the account's open invitations (members:manage: they name people who are not members).
export const GET = portalRoute(
  async ({ accountId }): Promise<TInvitationListResponse> => ({ invitations: await listInvitations({ accountId }) }),
  { permission: 'members:manage' },
);

// POST /portal-api/invitations: invites an e-mail with a role and mails the link; an open invitation to the same
// e-mail is revoked and replaced. An existing member: 409 on email. As owner: owners:manage too.
export const POST = portalRoute(
  async ({ request, session, accountId, origin }) => {
    const input = await readBody(request, ZCreateInvitationRequest);
    const { invitation, replaced } = await createInvitation({
      ...input,
      accountId,
      inviter: { id: session.user.id, email: session.user.email, role: session.role },
      address: webRequestClient(request.headers).address,
      origin,
    });
    const body: TInvitationCreatedResponse = {
      invitation,
      replaced,
      message: replaced
        ? `A new invitation was sent to ${invitation.email}; the earlier one, still open, was revoked and its link no longer works.`
        : `An invitation was sent to ${invitation.email}. Its link works once, for ${INVITATION_HOURS} hours.`,
    };
    return jsonResponse(body, { status: 201 });
  },
  { permission: 'members:manage' },
);
