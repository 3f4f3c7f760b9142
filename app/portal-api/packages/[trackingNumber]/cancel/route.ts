import { portalRoute } from '@/lib/portal/route';
import { cancelPackage } from '@/lib/lifecycle/change-status';
import { getPackage } from '@/lib/lifecycle/read';

// POST /portal-api/packages/{TrackingNumber}/cancel: 200 with the package (also when cancelled already); 409 not_cancellable once the carrier has it.
export const POST = portalRoute<{ trackingNumber: string }>(async ({ accountId, environment, params }) => {
  const scope = { accountId, environment, trackingNumber: params.trackingNumber };
  await cancelPackage(scope);
  return getPackage(scope);
});
