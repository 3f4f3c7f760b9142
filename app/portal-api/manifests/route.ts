import { createContainerManifest } from '@/lib/manifests/create-container-manifest';
import { env } from '@/lib/env';
import { listManifestsOperation } from '@/lib/http/operations/lifecycle';
import { portalOperation } from '@/lib/portal/api-operation';
import { portalRoute, readJson } from '@/lib/portal/route';
import { CONTAINER_MANIFEST_ALIASES, ZContainerManifestRequest } from '@/lib/schemas/container-manifest';
import { parseOperation } from '@/lib/schemas/parse';
import type { TPortalContainerManifestResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/manifests: GET /manifests's own operation (its filters, keyset pages and the manifest's one shape).
export const GET = portalOperation(listManifestsOperation, { permission: 'data:read' });

// POST /portal-api/manifests: the builder's submit; the same parse and create as POST /wf/manifest.
export const POST = portalRoute(
  async ({ request, accountId, environment }): Promise<TPortalContainerManifestResponse> => {
    const body = await readJson(request, env().API_MAX_BODY_BYTES);
    const parsed = parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });
    const result = await createContainerManifest({ accountId, environment, request: parsed });
    return { IsSuccess: 'true', ManifestID: result.manifestId, PackageCount: result.packageCount, created: result.created };
  },
  { permission: 'shipments:write' },
);
