import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, queryParameters } from '../openapi/parts';
import { listPickups } from '@/lib/pickups/pickups';
import { parseOperation } from '@/lib/schemas/parse';
import { ZListPickupsQuery, ZListPickupsResponse } from '@/lib/schemas/pickups';
import { accountScope, queryOf } from '../context';

export const listPickupsOperation = defineJsonOperation(ZListPickupsResponse, {
  id: 'listPickups',
  method: 'GET',
  path: '/pickups',
  scope: 'manifests:read',
  tag: 'Pickups',
  summary: 'List pickups, newest first',
  parameters: queryParameters(ZListPickupsQuery),
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '422': errorAnswer('A query parameter is invalid, unknown or repeated; `details` names it.') },
  handler: async (context) => ({
    body: await listPickups(
      accountScope(context),
      parseOperation(ZListPickupsQuery, queryOf(context, ['limit', 'cursor', 'status'])),
    ),
  }),
});
