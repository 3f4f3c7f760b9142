import 'server-only';
import { validationError } from '@/lib/errors/app-error';
import { defineJsonOperation } from '../operation';
import { errorAnswer, jsonSchemaOf, PATH_PARAMETERS } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { MAX_SIMULATED_DELIVERIES, ZPackageResponse, ZSimulateRequest } from '@/lib/schemas/lifecycle';
import { simulatePackage, simulatePackageCustoms } from '@/lib/status/change-status';
import { getPackage } from '@/lib/shipments/read';
import { isPackageStatus } from '@/lib/status/transitions';
import { accountScope, pathParam } from '../context';
import { keepSampleProof } from '@/lib/proof-of-delivery/simulated';

export const SIMULATE_BOUND = `Walks every intermediate status, each an event sent to the endpoints subscribed to it. One call may make at most ${MAX_SIMULATED_DELIVERIES.toLocaleString('en-US')} webhook deliveries (events times subscribed endpoints); a longer walk is refused with 422 before anything changes: walk in smaller steps.`;

export const simulatePackageOperation = defineJsonOperation(ZPackageResponse, {
  id: 'simulatePackage',
  method: 'POST',
  path: '/packages/{TrackingNumber}/simulate',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: 'Test path only: walk a package to a status, or record a customs outcome, firing each event',
  description: `${SIMULATE_BOUND} Walked to \`delivered\`, the package gets a sample proof of delivery (a recipient name, a drawn signature and a photo; GET /packages/{TrackingNumber}/proof-of-delivery). With \`customs\` instead of \`status\`: records that customs outcome on the package, as a carrier scan would (\`customs.<outcome>\`); the outcome it already has changes nothing; one that cannot follow its current outcome (see the Customs operations) is a 409.`,
  parameters: [PATH_PARAMETERS.trackingNumber],
  requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(ZSimulateRequest, 'input') } } },
  success: { kind: 'json', status: 200, description: 'The package.' },
  errors: {
    '404': errorAnswer('Not found, or the live path.'),
    '409': errorAnswer(
      '`illegal_transition`: the status cannot be reached, or the customs outcome cannot follow the current one.',
    ),
    '422': errorAnswer('`validation_failed`: an unknown status, or a walk past the deliveries one call may send.'),
  },
  testOnly: true,
  handler: async (context) => {
    const body = parseOperation(ZSimulateRequest, await context.json());
    const target = { ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') };
    if (body.customs !== undefined) {
      await simulatePackageCustoms({ ...target, outcome: body.customs, text: body.text });
      return { body: await getPackage(target) };
    }
    if (body.status === undefined || !isPackageStatus(body.status))
      throw validationError([{ path: 'status', message: `a package's status is one of its states, not ${body.status}` }]);
    await simulatePackage({ ...target, target: body.status, code: body.code, text: body.text, measured: body.measured });
    const pkg = await getPackage(target);
    // A simulated delivery carries a sample proof (a drawn signature and a photo), as a courier's scan would.
    if (body.status === 'delivered' && pkg.status === 'delivered') await keepSampleProof(target, pkg);
    return { body: pkg };
  },
});
