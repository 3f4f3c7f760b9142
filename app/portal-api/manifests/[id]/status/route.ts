import { getManifestOperation } from '@/lib/api/operations/get-manifest';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}/status: the same answer as GET /portal-api/manifests/{id} (GET /manifests/{id}'s
// operation), kept for pages loaded before the manifest page read both from one request.
export const GET = portalOperation<{ id: string }>(getManifestOperation, { permission: 'data:read' });
