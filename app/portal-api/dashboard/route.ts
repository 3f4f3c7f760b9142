import { getDashboard } from '@/lib/portal/dashboard';
import { countPackagesByStatus } from '@/lib/portal/package-status-counts';
import { portalRoute } from '@/lib/portal/route';
import type { TDashboardResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/dashboard: 30 days of activity, packages of both kinds by status, webhook success rate and recent items.
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TDashboardResponse> => {
    const [dashboard, packagesByStatus] = await Promise.all([
      getDashboard({ accountId, environment }),
      countPackagesByStatus({ accountId, environment }),
    ]);
    return {
      ...dashboard,
      recent: dashboard.recent.map((item) => ({ ...item, createdAt: item.createdAt.toISOString() })),
      packagesByStatus,
    };
  },
  { permission: 'data:read' },
);
