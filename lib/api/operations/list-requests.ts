import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, queryParameters } from '../openapi/parts';
import { REQUEST_LIST_PARAMETERS, ZListRequestsQuery, ZRequestLogList } from '@/lib/schemas/request-log';
import { parseOperation } from '@/lib/schemas/parse';
import { listRequests } from '@/lib/request-log/list-requests';
import { accountScope, queryOf } from '../context';

export const listRequestsOperation = defineJsonOperation(ZRequestLogList, {
  id: 'listRequests',
  method: 'GET',
  path: '/requests',
  scope: 'requests:read',
  tag: 'Requests',
  summary: 'List logged requests, newest first',
  description:
    "The account's requests in this environment, a page at a time: every API request whose token was known (whatever its answer), and " +
    "the portal's writes and errors. Bodies are the first 16 KB, with secrets and tokens replaced by `[redacted]`. A request appears " +
    'within a second of its answer and is kept 30 days. Reads of the log itself are not logged. `from` and `to` are UTC days, inclusive.',
  parameters: queryParameters(ZListRequestsQuery),
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '422': errorAnswer('A parameter is invalid, unknown or repeated; `details` names it.') },
  unlogged: true,
  handler: async (context) => {
    const query = parseOperation(ZListRequestsQuery, queryOf(context, REQUEST_LIST_PARAMETERS));
    return { body: await listRequests({ ...accountScope(context), query }) };
  },
});
