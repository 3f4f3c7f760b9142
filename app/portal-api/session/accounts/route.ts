import { listUserAccounts } from '@/lib/auth/session';
import { portalRoute } from '@/lib/portal/route';
import type { TAccountListResponse } from '@/lib/schemas/invitations';

// GET /portal-api/session/accounts: the accounts the signed-in user is a member of, with the role in each.
export const GET = portalRoute(
  async ({ session }): Promise<TAccountListResponse> => ({
    accounts: await listUserAccounts({ userId: session.user.id, currentAccountId: session.account.id }),
  }),
  { permission: 'self', anyAccount: true },
);
