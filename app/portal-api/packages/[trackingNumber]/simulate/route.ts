import { AppError, validationError } from '@/lib/errors/app-error';
import { portalRoute, readJson } from '@/lib/portal/route';
import { simulatePackage } from '@/lib/lifecycle/change-status';
import { getPackage } from '@/lib/lifecycle/read';
import { isPackageStatus } from '@/lib/lifecycle/transitions';
import { ZSimulateRequest } from '@/lib/schemas/lifecycle';
import { parseOperation } from '@/lib/schemas/parse';

// POST /portal-api/packages/{TrackingNumber}/simulate {status, code?}: test mode only (404 in live, as the API's live path).
export const POST = portalRoute<{ trackingNumber: string }>(
  async ({ request, accountId, environment, params }) => {
    if (environment !== 'test') throw new AppError('not_found', 'The simulator exists in the test environment only.');
    const body = parseOperation(ZSimulateRequest, await readJson(request));
    if (!isPackageStatus(body.status))
      throw validationError([{ path: 'status', message: `a package's status is one of its states, not ${body.status}` }]);
    const scope = { accountId, environment, trackingNumber: params.trackingNumber };
    await simulatePackage({ ...scope, target: body.status, code: body.code, text: body.text });
    return getPackage(scope);
  },
  { permission: 'shipments:write' },
);
