import { getManifestCustomsOperation } from '@/lib/api/operations/get-manifest-customs';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/customs: GET /manifests/{id}/customs's own operation: readiness per destination regime.
export const GET = portalOperation<{ id: string }>(getManifestCustomsOperation, { permission: 'data:read' });
