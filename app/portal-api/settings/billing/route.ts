import { getBillingSettings, setBillingPeriod } from '@/lib/billing/billing-settings';
import { portalRoute, readBody } from '@/lib/portal/route';
import { ZBillingSettingsRequest, type TBillingSettings } from '@/lib/schemas/invoices';

// GET|PUT /portal-api/settings/billing: the account's billing period (month or week; both environments) and the page
// environment's time zone it is read in (the close-out setting's).
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TBillingSettings> => getBillingSettings({ accountId, environment }),
  { permission: 'billing:read' },
);

export const PUT = portalRoute(
  async ({ request, accountId, environment, origin }): Promise<TBillingSettings> => {
    const body = await readBody(request, ZBillingSettingsRequest);
    return setBillingPeriod({ accountId, environment, origin }, body.period);
  },
  { permission: 'billing:manage', audited: true },
);
