import { cancelPackageOperation } from '@/lib/api/operations/cancel-package';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/packages/{TrackingNumber}/cancel: POST /packages/{TrackingNumber}/cancel's own operation: 200 with
// the package (also when cancelled already); 409 not_cancellable once the carrier has it.
export const POST = portalOperation<{ TrackingNumber: string }>(cancelPackageOperation, {
  permission: 'shipments:write',
  audited: true,
});
