import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { ZManifestResponse } from '@/lib/schemas/lifecycle';
import { closeManifest } from '@/lib/close-out/close-manifest';
import { getManifest } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const closeManifestOperation = defineJsonOperation(ZManifestResponse, {
  id: 'closeManifest',
  method: 'POST',
  path: '/manifests/{id}/close',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: 'Close a daily manifest: it takes no more packages',
  description:
    'The next package for its ManifestDate opens a new daily manifest (a new ManifestID, which its `package.sorting` names); ' +
    '`manifest.closed` is sent with `package_count` and `document_path`. Closing a closed manifest answers 200 with it again (no second event). ' +
    'A closed manifest is not changed: its packages cannot be cancelled (409 `not_cancellable`) and its handover document stays as it was. ' +
    "Close takes no options: a request body is not read. Manifests also close themselves at the account's cut-off hour, when one is set (portal settings).",
  parameters: [PATH_PARAMETERS.manifestId],
  success: { kind: 'json', status: 200, description: 'The closed manifest.' },
  errors: {
    '404': NOT_FOUND,
    '409': errorAnswer('`not_closable`: a container manifest, or a cancelled daily manifest; with `type` and `current_status`.'),
  },
  handler: async (context) => {
    const target = { ...accountScope(context), manifestId: pathParam(context, 'id') };
    await closeManifest({ ...target, origin: context.origin });
    return { body: await getManifest(target) };
  },
});
