import { getDashboard } from '@/lib/portal/dashboard';
import { portalRoute } from '@/lib/portal/route';

// GET /portal-api/dashboard: 30 days of activity, webhook success rate and recent items.
export const GET = portalRoute(async ({ accountId, environment }) => getDashboard({ accountId, environment }));
