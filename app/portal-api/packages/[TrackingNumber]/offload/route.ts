import { offloadPackageOperation } from '@/lib/api/operations/offload-package';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/packages/{TrackingNumber}/offload: the package page's "Offload from container", POST
// /packages/{TrackingNumber}/offload's own operation: 200 with the package (also when offloaded already); 409
// not_offloadable once the container departed or for a house not held. The API's scope is manifests:write, which the
// portal's shipments:write stands for.
export const POST = portalOperation<{ TrackingNumber: string }>(offloadPackageOperation, {
  permission: 'shipments:write',
  audited: true,
});
