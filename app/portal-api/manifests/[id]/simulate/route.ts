import { simulateManifestOperation } from '@/lib/api/operations/simulate-manifest';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/manifests/{id}/simulate {status, code?}: POST /manifests/{id}/simulate's own operation; test mode
// only (404 in live, as the API's live path).
export const POST = portalOperation<{ id: string }>(simulateManifestOperation, { permission: 'shipments:write' });
