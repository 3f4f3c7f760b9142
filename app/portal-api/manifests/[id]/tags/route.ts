import { getManifestTagsOperation } from '@/lib/api/operations/get-manifest-tags';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/tags: the container tag (PDF), GET /manifests/{id}/tags's own operation.
export const GET = portalOperation<{ id: string }>(getManifestTagsOperation, { permission: 'data:read' });
