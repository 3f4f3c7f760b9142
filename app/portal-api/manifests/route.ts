import { createContainerManifestOperation } from '@/lib/api/operations/create-container-manifest';
import { listManifestsOperation } from '@/lib/api/operations/list-manifests';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/manifests: GET /manifests's own operation (its filters, keyset pages and the manifest's one shape).
export const GET = portalOperation(listManifestsOperation, { permission: 'data:read' });

// POST /portal-api/manifests: the builder's submit, POST /wf/manifest's own operation: the same parse, create and
// answer, an identical retry marked by the Idempotent-Replayed header (lib/api/replayed.ts) as the API marks it.
export const POST = portalOperation(createContainerManifestOperation, { permission: 'shipments:write' });
