import { getManifestLabelsOperation } from '@/lib/api/operations/get-manifest-labels';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/labels: every package label of the manifest (PDF), GET /manifests/{id}/labels's own operation.
export const GET = portalOperation<{ id: string }>(getManifestLabelsOperation, { permission: 'data:read' });
