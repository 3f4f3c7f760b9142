import 'server-only';
import type { Operation, OperationContext } from '../types';
import { EVENT_LIST_PARAMETERS, ZListEventsQuery } from '@/lib/schemas/events';
import { parseOperation } from '@/lib/schemas/parse';
import { getEvent, listEvents } from '@/lib/events/list-events';
import { decodedPairs, queryObject } from '../query';

// GET /events and GET /events/:id: the account's webhook events in the path's environment.

function scope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment };
}

export const listEventsOperation: Operation = async (context) => {
  const query = parseOperation(ZListEventsQuery, queryObject(decodedPairs(context.search), { known: EVENT_LIST_PARAMETERS }));
  return { body: await listEvents({ ...scope(context), query }) };
};

export const getEventOperation: Operation = async (context) => ({
  body: await getEvent({ ...scope(context), id: context.params.id ?? '' }),
});
