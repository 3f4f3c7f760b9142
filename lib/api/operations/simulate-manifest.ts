import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, jsonSchemaOf, PATH_PARAMETERS } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZManifestResponse, ZSimulateRequest } from '@/lib/schemas/lifecycle';
import { simulateManifest } from '@/lib/status/change-status';
import { getManifest } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';
import { SIMULATE_BOUND } from './simulate-package';

export const simulateManifestOperation = defineJsonOperation(ZManifestResponse, {
  id: 'simulateManifest',
  method: 'POST',
  path: '/manifests/{id}/simulate',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: "Test path only: walk a container (or a daily manifest's packages) to a status",
  description: SIMULATE_BOUND,
  parameters: [PATH_PARAMETERS.manifestId],
  requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(ZSimulateRequest, 'input') } } },
  success: { kind: 'json', status: 200, description: 'The manifest.' },
  errors: {
    '404': errorAnswer('Not found, or the live path.'),
    '409': errorAnswer('`illegal_transition`: the status cannot be reached.'),
    '422': errorAnswer('`validation_failed`: an unknown status, or a walk past the deliveries one call may send.'),
  },
  testOnly: true,
  handler: async (context) => {
    const body = parseOperation(ZSimulateRequest, await context.json());
    const target = { ...accountScope(context), manifestId: pathParam(context, 'id') };
    await simulateManifest({ ...target, target: body.status, code: body.code, text: body.text });
    return { body: await getManifest(target) };
  },
});
