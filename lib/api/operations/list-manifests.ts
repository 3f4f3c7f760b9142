import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, queryParameters } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZListManifestsQuery, ZListManifestsResponse } from '@/lib/schemas/lifecycle';
import { listManifests } from '@/lib/shipments/read';
import { accountScope, queryOf } from '../context';

const FILTERS = ['limit', 'cursor', 'type', 'status', 'service', 'from', 'to', 'container_id', 'q'] as const;

export const listManifestsOperation = defineJsonOperation(ZListManifestsResponse, {
  id: 'listManifests',
  method: 'GET',
  path: '/manifests',
  scope: 'manifests:read',
  tag: 'Lifecycle',
  summary: 'List manifests (container and daily), newest first',
  parameters: queryParameters(ZListManifestsQuery),
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '422': errorAnswer('A query parameter is invalid, unknown or repeated; `details` names it.') },
  handler: async (context) => {
    const query = parseOperation(ZListManifestsQuery, queryOf(context, FILTERS));
    return { body: await listManifests({ ...accountScope(context), query }) };
  },
});
