import 'server-only';
import { defineJsonOperation } from '../operation';
import { NOT_FOUND, PATH_PARAMETERS, queryParameters } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZListPackagesResponse, ZPageQuery } from '@/lib/schemas/lifecycle';
import { listManifestPackages } from '@/lib/shipments/read';
import { accountScope, pathParam, queryOf } from '../context';

export const listManifestPackagesOperation = defineJsonOperation(ZListPackagesResponse, {
  id: 'listManifestPackages',
  method: 'GET',
  path: '/manifests/{id}/packages',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: "A manifest's packages",
  description: "In the manifest's order: a container's by position, a daily manifest's by arrival.",
  parameters: [PATH_PARAMETERS.manifestId, ...queryParameters(ZPageQuery)],
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '404': NOT_FOUND },
  handler: async (context) => {
    const page = parseOperation(ZPageQuery, queryOf(context, ['limit', 'cursor']));
    return { body: await listManifestPackages({ ...accountScope(context), manifestId: pathParam(context, 'id'), ...page }) };
  },
});
