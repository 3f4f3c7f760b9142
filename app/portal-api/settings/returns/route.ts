import { portalRoute, readBody } from '@/lib/portal/route';
import { getReturnSettings, setReturnSettings } from '@/lib/returns/public-returns';
import { ZReturnSettings, type TReturnSettings } from '@/lib/schemas/public-returns';

// GET|PUT /portal-api/settings/returns: whether the public tracking page of the account's live packages offers their
// recipients a return once out for delivery or delivered. One setting for the account (only live packages have the offer).
export const GET = portalRoute(async ({ accountId }): Promise<TReturnSettings> => getReturnSettings({ accountId }), {
  permission: 'data:read',
});

export const PUT = portalRoute(
  async ({ request, accountId, origin }): Promise<TReturnSettings> =>
    setReturnSettings({ accountId, origin }, await readBody(request, ZReturnSettings)),
  { permission: 'settings:manage', audited: true },
);
