import { getManifestOperation } from '@/lib/api/operations/get-manifest';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}: GET /manifests/{id}'s own operation: the manifest, its counts by status and totals.
export const GET = portalOperation<{ id: string }>(getManifestOperation, { permission: 'data:read' });
