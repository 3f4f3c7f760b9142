import { getDashboard } from '@/lib/portal/dashboard';
import { countPackagesByStatus } from '@/lib/portal/package-status-counts';
import { portalRoute } from '@/lib/portal/route';

// GET /portal-api/dashboard: 30 days of activity, packages of both kinds by status, webhook success rate and recent items.
export const GET = portalRoute(async ({ accountId, environment }) => {
  const [dashboard, packagesByStatus] = await Promise.all([getDashboard({ accountId, environment }), countPackagesByStatus({ accountId, environment })]);
  return { ...dashboard, packagesByStatus };
});
