import { closeManifestOperation } from '@/lib/api/operations/close-manifest';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/manifests/{id}/close: the portal's "Close manifest", POST /manifests/{id}/close's own operation (a
// daily manifest; idempotent; 409 not_closable for a container or a cancelled one). Answers the closed manifest.
export const POST = portalOperation<{ id: string }>(closeManifestOperation, { permission: 'shipments:write', audited: true });
