import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { offloadPackage } from '@/lib/customs/offload-package';
import { ZPackageResponse } from '@/lib/schemas/lifecycle';
import { getPackage } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const offloadPackageOperation = defineJsonOperation(ZPackageResponse, {
  id: 'offloadPackage',
  method: 'POST',
  path: '/packages/{TrackingNumber}/offload',
  scope: 'manifests:write',
  tag: 'Customs',
  summary: 'Offload a house held by customs from its container, so the rest departs',
  description:
    "A container's house on `do_not_load`, `information_requested` or `screening_requested`, while the container is on the ground (manifested or received). " +
    'The house keeps its status and customs outcome and gains `offloaded_at`; its timeline and the `package.offloaded` webhook say so, with an audit record. ' +
    "From then on the container's departure, its readiness (`GET /manifests/{id}/customs`, and the enforcement before a live departure) and its do_not_load hold leave the house out. " +
    'Offloading again answers 200 with the package and records nothing. After departure, or for a house not held, a cancelled one or a daily package: 409 `not_offloadable` with `current_status`.',
  parameters: [PATH_PARAMETERS.trackingNumber],
  success: { kind: 'json', status: 200, description: 'The package, offloaded.' },
  errors: {
    '404': NOT_FOUND,
    '409': errorAnswer(
      '`not_offloadable`, with `current_status`: the container departed (its status), the house is not held (its customs outcome, or `none`), it is cancelled, or it is a daily package (`daily`).',
    ),
  },
  handler: async (context) => {
    const target = { ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') };
    await offloadPackage({ ...accountScope(context), identifier: target.trackingNumber, origin: context.origin });
    return { body: await getPackage(target) };
  },
});
