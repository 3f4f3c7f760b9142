import { cancelManifestOperation } from '@/lib/api/operations/cancel-manifest';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/manifests/{id}/cancel: POST /manifests/{id}/cancel's own operation (a container with its packages,
// or a daily manifest's still-manifested packages); answers the manifest.
export const POST = portalOperation<{ id: string }>(cancelManifestOperation, { permission: 'shipments:write', audited: true });
