import { AppError } from '@/lib/errors/app-error';
import { portalRoute, readJson } from '@/lib/portal/route';
import { simulateManifest } from '@/lib/lifecycle/change-status';
import { getManifest } from '@/lib/lifecycle/read';
import { ZSimulateRequest } from '@/lib/schemas/lifecycle';
import { parseOperation } from '@/lib/schemas/parse';

// POST /portal-api/manifests/{id}/simulate {status, code?}: test mode only (404 in live, as the API's live path).
export const POST = portalRoute<{ id: string }>(
  async ({ request, accountId, environment, params }) => {
    if (environment !== 'test') throw new AppError('not_found', 'The simulator exists in the test environment only.');
    const body = parseOperation(ZSimulateRequest, await readJson(request));
    const scope = { accountId, environment, manifestId: params.id };
    await simulateManifest({ ...scope, target: body.status, code: body.code, text: body.text });
    return getManifest(scope);
  },
  { permission: 'shipments:write' },
);
