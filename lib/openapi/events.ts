import { errorAnswer, EXAMPLE_ID, jsonAnswer, jsonSchemaOf, pathParameter, queryParameters, type Json } from './parts';
import { ZListEventsQuery, ZWebhookEvent, ZWebhookEventList } from '@/lib/schemas/events';

// The events API's part of the OpenAPI document, generated from the schemas its operations parse and
// answer with (lib/schemas/events.ts).

export function eventPaths(): Json {
  const parameters = queryParameters(ZListEventsQuery);
  return {
    '/events': {
      get: {
        tags: ['Events'],
        operationId: 'listEvents',
        summary: 'List webhook events, newest first',
        description:
          "The account's webhook events in this environment, a page at a time: a `package.sorting` event for every accepted package, and a " +
          'lifecycle event whenever some endpoint subscribed to its type when it happened. `data` is the body each endpoint was sent (every event but ' +
          '`package.sorting` names itself in it as `type`); each delivery also carried the event name as `x-carrier-event`. ' +
          '`from` and `to` are UTC days, inclusive. A parameter not listed, or given twice, is a 422 naming it.',
        parameters,
        responses: {
          '200': jsonAnswer('A page.', 'WebhookEventList'),
          '422': errorAnswer('A parameter is invalid; `details` names it.'),
        },
      },
    },
    '/events/{id}': {
      parameters: [pathParameter('id', "An event id (`evt_…`), as in a delivery's body and log.", EXAMPLE_ID.event)],
      get: {
        tags: ['Events'],
        operationId: 'getEvent',
        summary: 'One webhook event',
        responses: {
          '200': jsonAnswer('The event.', 'WebhookEvent'),
          '404': errorAnswer('No such event in this account and environment.'),
        },
      },
    },
  };
}

export function eventSchemas(): Json {
  return { WebhookEvent: jsonSchemaOf(ZWebhookEvent, 'output'), WebhookEventList: jsonSchemaOf(ZWebhookEventList, 'output') };
}
