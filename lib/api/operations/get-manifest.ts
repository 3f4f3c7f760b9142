import 'server-only';
import { defineJsonOperation } from '../operation';
import { NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { ZManifestResponse } from '@/lib/schemas/lifecycle';
import { getManifest } from '@/lib/shipments/read';
import { accountScope, pathParam } from '../context';

export const getManifestOperation = defineJsonOperation(ZManifestResponse, {
  id: 'getManifest',
  method: 'GET',
  path: '/manifests/{id}',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: 'A manifest with its package counts by status and totals',
  parameters: [PATH_PARAMETERS.manifestId],
  success: { kind: 'json', status: 200, description: 'The manifest.' },
  errors: { '404': NOT_FOUND },
  handler: async (context) => ({ body: await getManifest({ ...accountScope(context), manifestId: pathParam(context, 'id') }) }),
});
