import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, EXAMPLE_ID, pathParameter } from '../openapi/parts';
import { ZRequestLogEntry } from '@/lib/schemas/request-log';
import { getRequest } from '@/lib/request-log/list-requests';
import { accountScope, pathParam } from '../context';

export const getRequestOperation = defineJsonOperation(ZRequestLogEntry, {
  id: 'getRequest',
  method: 'GET',
  path: '/requests/{id}',
  scope: 'requests:read',
  tag: 'Requests',
  summary: 'One logged request',
  description: "For an integrator's own support tooling: quote the `x-request-id` of any answer.",
  parameters: [pathParameter('id', 'A request id (`req_…`): the `x-request-id` header of its answer.', EXAMPLE_ID.request)],
  success: { kind: 'json', status: 200, description: 'The request.' },
  errors: { '404': errorAnswer('No such request in this account and environment (yet, or any more).') },
  unlogged: true,
  handler: async (context) => ({ body: await getRequest({ ...accountScope(context), requestId: pathParam(context, 'id') }) }),
});
