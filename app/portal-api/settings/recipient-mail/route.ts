import { portalRoute, readBody } from '@/lib/portal/route';
import { getRecipientMailSettings, setRecipientMailSettings } from '@/lib/recipient-mail/settings';
import { ZRecipientMailSettings, type TRecipientMailSettings } from '@/lib/schemas/public-tracking';

// GET|PUT /portal-api/settings/recipient-mail: the statuses at which the account's recipients (a live package's
// ToEmail) are e-mailed a link to its public tracking page. One setting for the account, whichever page shows it.
export const GET = portalRoute(
  async ({ accountId }): Promise<TRecipientMailSettings> => getRecipientMailSettings({ accountId }),
  { permission: 'data:read' },
);

export const PUT = portalRoute(
  async ({ request, accountId, origin }): Promise<TRecipientMailSettings> =>
    setRecipientMailSettings({ accountId, origin }, await readBody(request, ZRecipientMailSettings)),
  { permission: 'settings:manage', audited: true },
);
