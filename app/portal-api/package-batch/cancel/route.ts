import { jsonResponse, portalRoute, readBody } from '@/lib/portal/route';
import { cancelSelection } from '@/lib/portal/package-batch';
import { ZPackageSelection } from '@/lib/schemas/package-selection';

// POST /portal-api/package-batch/cancel: cancels the selected packages one by one with the single cancel's rules;
// 200 with how many were cancelled and, for each that was not, why.
export const POST = portalRoute(
  async ({ request, accountId, environment, origin }) => {
    const selection = await readBody(request, ZPackageSelection);
    return jsonResponse(await cancelSelection({ accountId, environment, selection, origin }));
  },
  { permission: 'shipments:write', audited: true },
);
