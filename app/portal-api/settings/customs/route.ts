import { getCustomsSettings, setCustomsSettings } from '@/lib/customs/settings';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZCustomsSettings, type TCustomsSettings } from '@/lib/schemas/customs-api';

// GET|PUT /portal-api/settings/customs: whether a live container departs only once its customs readiness holds. One
// setting for the account (the test path never holds a container).
export const GET = portalRoute(async ({ accountId }): Promise<TCustomsSettings> => getCustomsSettings({ accountId }), {
  permission: 'data:read',
});

export const PUT = portalRoute(
  async ({ request, accountId, origin }): Promise<TCustomsSettings> =>
    setCustomsSettings({ accountId, origin }, await readBody(request, ZCustomsSettings)),
  { permission: 'settings:manage', audited: true },
);
