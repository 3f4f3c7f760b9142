import { portalRoute } from '@/lib/portal/route';
import { listPackages } from '@/lib/lifecycle/read';
import { portalQuery } from '@/lib/portal-lifecycle/query';
import { PACKAGE_LIST_PARAMETERS, ZListPackagesQuery } from '@/lib/schemas/lifecycle';
import { parseOperation } from '@/lib/schemas/parse';

// GET /portal-api/packages: every package (container and daily), filtered, newest first, keyset pages: GET /packages's shape.
export const GET = portalRoute(
  async ({ request, accountId, environment }) => {
    const query = parseOperation(ZListPackagesQuery, portalQuery(request.url, PACKAGE_LIST_PARAMETERS));
    return listPackages({ accountId, environment, query });
  },
  { permission: 'data:read' },
);
