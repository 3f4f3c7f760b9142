import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { ZPackageResponse } from '@/lib/schemas/lifecycle';
import { cancelPackage } from '@/lib/status/change-status';
import { getPackage } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const cancelPackageOperation = defineJsonOperation(ZPackageResponse, {
  id: 'cancelPackage',
  method: 'POST',
  path: '/packages/{TrackingNumber}/cancel',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: 'Cancel a package (only while manifested)',
  description: 'Cancelling again answers 200 with the cancelled package.',
  parameters: [PATH_PARAMETERS.trackingNumber],
  success: { kind: 'json', status: 200, description: 'The package.' },
  errors: { '404': NOT_FOUND, '409': errorAnswer('`not_cancellable`, with `current_status`.') },
  handler: async (context) => {
    const target = { ...accountScope(context), trackingNumber: pathParam(context, 'TrackingNumber') };
    await cancelPackage({ ...target, origin: context.origin });
    return { body: await getPackage(target) };
  },
});
