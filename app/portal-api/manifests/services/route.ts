import { listManifestServices } from '@/lib/shipments/read';
import { portalRoute } from '@/lib/portal/route';
import type { TManifestServicesResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/manifests/services: the services the account's manifests have in this environment, the options of
// the Manifests list's service filter (GET /manifests?service=). Not a resource: the portal's form alone asks for it.
export const GET = portalRoute(
  async ({ accountId, environment }): Promise<TManifestServicesResponse> => ({
    services: await listManifestServices({ accountId, environment }),
  }),
  { permission: 'data:read' },
);
