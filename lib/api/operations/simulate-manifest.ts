import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, jsonSchemaOf, PATH_PARAMETERS } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZManifestResponse, ZSimulateRequest } from '@/lib/schemas/lifecycle';
import { simulateManifest, simulateManifestCustoms } from '@/lib/status/change-status';
import { getManifest } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';
import { SIMULATE_BOUND } from './simulate-package';

export const simulateManifestOperation = defineJsonOperation(ZManifestResponse, {
  id: 'simulateManifest',
  method: 'POST',
  path: '/manifests/{id}/simulate',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: "Test path only: walk a container (or a daily manifest's packages) to a status, or record a customs outcome",
  description: `${SIMULATE_BOUND} A container does not depart while it, or a house in it, is on \`do_not_load\` (409 \`do_not_load\`, naming the packages). With \`customs\` instead of \`status\`: records that outcome on the container itself (its packages keep theirs: simulate those one at a time), or on each package of a daily manifest.`,
  parameters: [PATH_PARAMETERS.manifestId],
  requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(ZSimulateRequest, 'input') } } },
  success: { kind: 'json', status: 200, description: 'The manifest.' },
  errors: {
    '404': errorAnswer('Not found, or the live path.'),
    '409': errorAnswer(
      '`illegal_transition`: the status cannot be reached, or the customs outcome cannot follow the current one; `do_not_load`: the walk would depart a container holding a house on do_not_load.',
    ),
    '422': errorAnswer('`validation_failed`: an unknown status, or a walk past the deliveries one call may send.'),
  },
  testOnly: true,
  handler: async (context) => {
    const body = parseOperation(ZSimulateRequest, await context.json());
    const target = { ...accountScope(context), manifestId: pathParam(context, 'id') };
    if (body.customs !== undefined) await simulateManifestCustoms({ ...target, outcome: body.customs, text: body.text });
    else
      await simulateManifest({ ...target, target: body.status ?? '', code: body.code, text: body.text, measured: body.measured });
    return { body: await getManifest(target) };
  },
});
