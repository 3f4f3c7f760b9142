import { listManifestPackagesOperation } from '@/lib/api/operations/list-manifest-packages';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/packages?limit&cursor: GET /manifests/{id}/packages's own operation, keyset pages in
// the manifest's order.
export const GET = portalOperation<{ id: string }>(listManifestPackagesOperation, { permission: 'data:read' });
