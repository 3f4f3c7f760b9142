import { switchSessionAccount } from '@/lib/auth/session';
import { AppError } from '@/lib/errors/app-error';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZSwitchAccountRequest, type TAccountSwitchedResponse } from '@/lib/schemas/invitations';

// POST /portal-api/session/account {accountId}: this session acts for another account of its user from now on (every
// tab of this browser; a tab still showing the old one is refused with 409 account_changed). Not a member: 404.
export const POST = portalRoute(
  async ({ request, session }): Promise<TAccountSwitchedResponse> => {
    const { accountId } = await readBody(request, ZSwitchAccountRequest);
    const switched = await switchSessionAccount({ sessionId: session.id, userId: session.user.id, accountId });
    if (!switched)
      throw new AppError('not_found', 'You are not a member of an account with this id.', {
        details: [{ path: 'accountId', message: 'is not an account you are a member of' }],
      });
    return switched;
  },
  // Switching is about the session, not the page's account: a tab of any of the user's accounts may switch.
  { permission: 'self', anyAccount: true },
);
