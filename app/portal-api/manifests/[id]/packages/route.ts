import { AppError } from '@/lib/errors/app-error';
import { portalRoute } from '@/lib/portal/route';
import { listManifestPackages } from '@/lib/portal-queries/get-manifest';
import { ZPageQuery, searchParamsObject } from '@/lib/portal-queries/list-params';
import type { TPortalManifestPackagePage } from '@/lib/schemas/portal-responses';

// GET /portal-api/manifests/{id}/packages?cursor&limit: one keyset page of the manifest's packages.
export const GET = portalRoute<{ id: string }>(async ({ request, accountId, environment, params }): Promise<TPortalManifestPackagePage> => {
  const page = await listManifestPackages({
    accountId,
    environment,
    id: params.id,
    ...ZPageQuery.parse(searchParamsObject(request.url)),
  });
  if (!page) throw new AppError('not_found', `No manifest ${params.id} in this environment.`);
  return page;
});
