import { openBillingPeriod } from '@/lib/billing/invoices';
import { portalRoute } from '@/lib/portal/route';
import type { TOpenBillingPeriod } from '@/lib/schemas/invoices';

// GET /portal-api/billing/open: the Billing page's running total of what is not invoiced yet, and its adjustments.
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TOpenBillingPeriod> =>
    openBillingPeriod({ accountId, environment, now: new Date() }),
  { permission: 'billing:read' },
);
