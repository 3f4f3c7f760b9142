import { getBranding, setBranding } from '@/lib/branding/branding';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZBrandingRequest, type TBranding } from '@/lib/schemas/branding';

// GET|PUT /portal-api/settings/branding: the accent colour and logo of the account's packages' public tracking page
// (one for the account; the page shows live packages only). A field left out is kept, null removes it.
export const GET = portalRoute(async ({ accountId }): Promise<TBranding> => getBranding({ accountId }), {
  permission: 'data:read',
});

export const PUT = portalRoute(
  async ({ request, accountId, origin }): Promise<TBranding> =>
    setBranding({ accountId, origin }, await readBody(request, ZBrandingRequest)),
  { permission: 'settings:manage', audited: true },
);
