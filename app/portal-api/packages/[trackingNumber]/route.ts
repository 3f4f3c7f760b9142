import { portalRoute } from '@/lib/portal/route';
import { getPackage } from '@/lib/lifecycle/read';

// GET /portal-api/packages/{TrackingNumber}: one package, GET /packages/{TrackingNumber}'s shape; another account's: 404.
export const GET = portalRoute<{ trackingNumber: string }>(async ({ accountId, environment, params }) =>
  getPackage({ accountId, environment, trackingNumber: params.trackingNumber }),
);
