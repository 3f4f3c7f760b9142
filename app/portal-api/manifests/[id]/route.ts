import { AppError } from '@/lib/errors/app-error';
import { portalRoute } from '@/lib/portal/route';
import { getManifest } from '@/lib/portal-queries/get-manifest';
import type { TPortalManifestDetail } from '@/lib/schemas/portal-responses';

// GET /portal-api/manifests/{id}: a container or daily manifest's header and counts.
export const GET = portalRoute<{ id: string }>(async ({ accountId, environment, params }): Promise<TPortalManifestDetail> => {
  const manifest = await getManifest({ accountId, environment, id: params.id });
  if (!manifest) throw new AppError('not_found', `No manifest ${params.id} in this environment.`);
  return manifest;
});
