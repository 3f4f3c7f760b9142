import { portalRoute, jsonResponse } from '@/lib/portal/route';
import { countPackages } from '@/lib/portal/package-batch';
import { portalQuery } from '@/lib/portal/package-list-query';
import { PACKAGE_LIST_PARAMETERS, ZListPackagesQuery } from '@/lib/schemas/lifecycle';
import { parseOperation } from '@/lib/schemas/parse';

// GET /portal-api/package-count?<GET /packages's filters>: how many packages they match (the Packages page's total).
export const GET = portalRoute(
  async ({ request, accountId, environment }) => {
    const {
      limit: _limit,
      cursor: _cursor,
      ...filters
    } = parseOperation(ZListPackagesQuery, portalQuery(request.url, PACKAGE_LIST_PARAMETERS));
    return jsonResponse(await countPackages({ accountId, environment, filters }));
  },
  { permission: 'data:read' },
);
