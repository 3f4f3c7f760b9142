import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, queryParameters } from '../openapi/parts';
import { EVENT_LIST_PARAMETERS, ZListEventsQuery, ZWebhookEventList } from '@/lib/schemas/events';
import { parseOperation } from '@/lib/schemas/parse';
import { listEvents } from '@/lib/webhook-events/list-events';
import { accountScope, queryOf } from '../context';

export const listEventsOperation = defineJsonOperation(ZWebhookEventList, {
  id: 'listEvents',
  method: 'GET',
  path: '/events',
  scope: 'events:read',
  tag: 'Events',
  summary: 'List webhook events, newest first',
  description:
    "The account's webhook events in this environment, a page at a time: a `package.sorting` event for every accepted package, and a " +
    'lifecycle event whenever some endpoint subscribed to its type when it happened. `data` is the body each endpoint was sent (every event but ' +
    '`package.sorting` names itself in it as `type`); each delivery also carried the event name as `x-carrier-event`. ' +
    '`from` and `to` are UTC days, inclusive. A parameter not listed, or given twice, is a 422 naming it.',
  parameters: queryParameters(ZListEventsQuery),
  success: { kind: 'json', status: 200, description: 'A page.' },
  errors: { '422': errorAnswer('A parameter is invalid; `details` names it.') },
  handler: async (context) => {
    const query = parseOperation(ZListEventsQuery, queryOf(context, EVENT_LIST_PARAMETERS));
    return { body: await listEvents({ ...accountScope(context), query }) };
  },
});
