import { portalRoute } from '@/lib/portal/route';
import { listPackageEvents } from '@/lib/lifecycle/read';

// GET /portal-api/packages/{TrackingNumber}/events: the package's timeline, oldest first.
export const GET = portalRoute<{ trackingNumber: string }>(async ({ accountId, environment, params }) =>
  listPackageEvents({ accountId, environment, trackingNumber: params.trackingNumber }),
);
