import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, NOT_FOUND, PATH_PARAMETERS, queryParameters } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZListPackagesResponse, ZManifestPackagesQuery } from '@/lib/schemas/lifecycle';
import { listManifestPackages } from '@/lib/shipments/read';
import { accountScope, pathParam, queryOf } from '../context';

export const listManifestPackagesOperation = defineJsonOperation(ZListPackagesResponse, {
  id: 'listManifestPackages',
  method: 'GET',
  path: '/manifests/{id}/packages',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: "A manifest's packages",
  description:
    "In the manifest's order: a container's by position, a daily manifest's by arrival. `customs_not_ready` keeps the houses not ready for a regime (those `houses_not_ready` counts in `GET /manifests/{id}/customs`).",
  parameters: [PATH_PARAMETERS.manifestId, ...queryParameters(ZManifestPackagesQuery)],
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '404': NOT_FOUND, '422': errorAnswer('A query parameter is invalid, unknown or repeated; `details` names it.') },
  handler: async (context) => {
    const page = parseOperation(ZManifestPackagesQuery, queryOf(context, ['limit', 'cursor', 'customs_not_ready']));
    return { body: await listManifestPackages({ ...accountScope(context), manifestId: pathParam(context, 'id'), ...page }) };
  },
});
