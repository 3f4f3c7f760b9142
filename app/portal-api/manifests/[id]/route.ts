import { amendContainerOperation } from '@/lib/api/operations/amend-container';
import { getManifestOperation } from '@/lib/api/operations/get-manifest';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests/{id}: GET /manifests/{id}'s own operation: the manifest, its counts by status and totals.
export const GET = portalOperation<{ id: string }>(getManifestOperation, { permission: 'data:read' });

// PATCH /portal-api/manifests/{id}: the manifest page's "Amend air cargo header", PATCH /manifests/{id}'s own
// operation: 200 with the manifest; 422 naming each refused field; 409 not_amendable once the container departed.
export const PATCH = portalOperation<{ id: string }>(amendContainerOperation, { permission: 'shipments:write', audited: true });
