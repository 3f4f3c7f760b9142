import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { ZManifestResponse } from '@/lib/schemas/lifecycle';
import { cancelManifest } from '@/lib/status/change-status';
import { getManifest } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const cancelManifestOperation = defineJsonOperation(ZManifestResponse, {
  id: 'cancelManifest',
  method: 'POST',
  path: '/manifests/{id}/cancel',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: "Cancel a container with its packages, or a daily manifest's still-manifested packages",
  description:
    "A container's houses offloaded from it (`POST /packages/{TrackingNumber}/offload`) are cancelled with it while still manifested, each with its `package.cancelled` event. Cancelling again answers 200 with the cancelled manifest. After the carrier took possession: 409 `not_cancellable`.",
  parameters: [PATH_PARAMETERS.manifestId],
  success: { kind: 'json', status: 200, description: 'The manifest.' },
  errors: { '404': NOT_FOUND, '409': errorAnswer('`not_cancellable`, with `current_status`.') },
  handler: async (context) => {
    const target = { ...accountScope(context), manifestId: pathParam(context, 'id') };
    await cancelManifest({ ...target, origin: context.origin });
    return { body: await getManifest(target) };
  },
});
