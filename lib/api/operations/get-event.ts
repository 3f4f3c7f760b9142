import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, EXAMPLE_ID, pathParameter } from '../openapi/parts';
import { ZWebhookEvent } from '@/lib/schemas/events';
import { getEvent } from '@/lib/webhook-events/list-events';
import { accountScope, pathParam } from '../context';

export const getEventOperation = defineJsonOperation(ZWebhookEvent, {
  id: 'getEvent',
  method: 'GET',
  path: '/events/{id}',
  scope: 'events:read',
  tag: 'Events',
  summary: 'One webhook event',
  parameters: [pathParameter('id', "An event id (`evt_…`), as in a delivery's body and log.", EXAMPLE_ID.event)],
  success: { kind: 'json', status: 200, description: 'The event.' },
  errors: { '404': errorAnswer('No such event in this account and environment.') },
  handler: async (context) => ({ body: await getEvent({ ...accountScope(context), id: pathParam(context, 'id') }) }),
});
