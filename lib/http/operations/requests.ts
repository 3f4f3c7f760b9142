import 'server-only';
import type { Operation, OperationContext } from '../types';
import { REQUEST_LIST_PARAMETERS, ZListRequestsQuery } from '@/lib/schemas/request-log';
import { parseOperation } from '@/lib/schemas/parse';
import { getRequest, listRequests } from '@/lib/request-log/list-requests';
import { decodedPairs, queryObject } from '../query';

// GET /requests and GET /requests/:id: the account's request log in the path's environment.

function scope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment };
}

export const listRequestsOperation: Operation = async (context) => {
  const query = parseOperation(ZListRequestsQuery, queryObject(decodedPairs(context.search), { known: REQUEST_LIST_PARAMETERS }));
  return { body: await listRequests({ ...scope(context), query }) };
};

export const getRequestOperation: Operation = async (context) => ({
  body: await getRequest({ ...scope(context), requestId: context.params.id ?? '' }),
});
