import { createContainerManifest } from '@/lib/manifests/create-container-manifest';
import { env } from '@/lib/env';
import { portalRoute, readJson } from '@/lib/portal/route';
import { listManifests } from '@/lib/portal-queries/list-manifests';
import { ZManifestListQuery, searchParamsObject } from '@/lib/portal-queries/list-params';
import { CONTAINER_MANIFEST_ALIASES, ZContainerManifestRequest } from '@/lib/schemas/container-manifest';
import { parseOperation } from '@/lib/schemas/parse';
import type { TPortalContainerManifestResponse, TPortalManifestList } from '@/lib/schemas/portal-responses';

// GET /portal-api/manifests: container and daily package manifests, filtered and paginated.
export const GET = portalRoute(async ({ request, accountId, environment }): Promise<TPortalManifestList> => {
  const query = parseOperation(ZManifestListQuery, searchParamsObject(request.url));
  return listManifests({ accountId, environment, ...query });
});

// POST /portal-api/manifests: the builder's submit; the same parse and create as POST /wf/manifest.
export const POST = portalRoute(async ({ request, accountId, environment }): Promise<TPortalContainerManifestResponse> => {
  const body = await readJson(request, env().API_MAX_BODY_BYTES);
  const parsed = parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });
  const result = await createContainerManifest({ accountId, environment, request: parsed });
  return { IsSuccess: 'true', ManifestID: result.manifestId, PackageCount: result.packageCount, created: result.created };
});
