import { portalRoute } from '@/lib/portal/route';
import { findPackage } from '@/lib/portal-queries/find-package';
import { ZFindPackageQuery, searchParamsObject } from '@/lib/portal-queries/list-params';
import { parseOperation } from '@/lib/schemas/parse';

// GET /portal-api/packages?tracking=…: a package by tracking number, in container and daily manifests.
export const GET = portalRoute(async ({ request, accountId, environment }) => {
  const { tracking } = parseOperation(ZFindPackageQuery, searchParamsObject(request.url));
  return { items: await findPackage({ accountId, environment, trackingNumber: tracking }) };
});
