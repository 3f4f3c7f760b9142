import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, errorAnswer, jsonSchemaOf, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { amendContainer, readContainerAmendment } from '@/lib/customs/amend-container';
import { ZContainerAmendment } from '@/lib/schemas/container-manifest';
import { ZManifestResponse } from '@/lib/schemas/lifecycle';
import { getManifest } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const amendContainerOperation = defineJsonOperation(ZManifestResponse, {
  id: 'amendContainer',
  method: 'PATCH',
  path: '/manifests/{id}',
  scope: 'manifests:write',
  tag: 'Customs',
  summary: "Amend a container's air cargo header (AWB, ULD, seal, flight, airports, security) until it departs",
  description:
    'A container manifest only (a daily manifest has no air cargo header: 409 `not_amendable` with `current_status` `daily`), while it is manifested or received; after it departed, 409 `not_amendable` with `current_status`. ' +
    'Each field is checked by the rule it had at acceptance, every failing one named (422); null or "" removes it. ' +
    'The change is written with an event of the container (`container.amended`, naming the fields), the `container.amended` webhook and an audit record; readiness (`GET /manifests/{id}/customs`) follows at once. An amendment that changes nothing records nothing.',
  parameters: [PATH_PARAMETERS.manifestId],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: jsonSchemaOf(ZContainerAmendment.partial(), 'input'),
        example: { FlightNumber: 'LH401', FlightDate: '2026-11-24', AWB: '020-12345675' },
      },
    },
  },
  success: { kind: 'json', status: 200, description: 'The manifest, amended.' },
  errors: {
    '404': NOT_FOUND,
    '409': errorAnswer('`not_amendable` (with `current_status`): the container departed, or the manifest is a daily one.'),
    '422': BODY_ERRORS['422']!,
  },
  handler: async (context) => {
    const amendment = readContainerAmendment(await context.json());
    const target = { ...accountScope(context), manifestId: pathParam(context, 'id') };
    await amendContainer({ ...target, amendment, origin: context.origin });
    return { body: await getManifest(target) };
  },
});
