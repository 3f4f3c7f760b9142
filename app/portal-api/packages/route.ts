import { z } from 'zod';
import { portalRoute } from '@/lib/portal/route';
import { findPackage } from '@/lib/portal-queries/find-package';
import { searchParamsObject } from '@/lib/portal-queries/list-params';
import { parseOperation } from '@/lib/schemas/parse';

const ZFindPackageQuery = z.object({
  tracking: z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
});

// GET /portal-api/packages?tracking=…: a package by tracking number, in container and daily manifests.
export const GET = portalRoute(async ({ request, accountId, environment }) => {
  const { tracking } = parseOperation(ZFindPackageQuery, searchParamsObject(request.url));
  return { items: await findPackage({ accountId, environment, trackingNumber: tracking }) };
});
