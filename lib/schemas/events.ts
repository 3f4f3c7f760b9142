import { z } from 'zod';
import { day, LIST_LIMIT_DEFAULT, limit, rangeInOrder } from './lifecycle';
import { cursor } from './list';
import { keysetList } from './list';
import { oneOf } from './fields';
import { WEBHOOK_EVENTS } from './webhooks';

// The events API: the account's webhook events, as stored in the outbox, for an integrator's own tooling
// and for `npm run listen`. An event is what every subscribed endpoint was sent: `data` is the body a receiver got.

/** GET /events's query parameters: any other is a 422 naming it. */
export const EVENT_LIST_PARAMETERS = ['limit', 'cursor', 'type', 'from', 'to'] as const;

export const ZListEventsQuery = z
  .strictObject({
    limit,
    cursor,
    type: oneOf(WEBHOOK_EVENTS),
    from: day(),
    to: day(),
  })
  .superRefine(rangeInOrder)
  .transform((q) => ({
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    cursor: q.cursor || undefined,
    type: q.type,
    from: q.from,
    to: q.to,
  }));

export type TListEventsQuery = z.output<typeof ZListEventsQuery>;

// `object: 'webhook_event'`: a package's tracking events (GET /packages/{TrackingNumber}/events) are `event`.
export const ZWebhookEvent = z.object({
  id: z.string().meta({ description: 'The event id (`evt_…`), the same in every delivery of it.' }),
  object: z.literal('webhook_event'),
  type: z.enum(WEBHOOK_EVENTS),
  created_at: z.string().meta({ format: 'date-time' }),
  test: z
    .boolean()
    .meta({ description: 'A test event sent from an endpoint ("send test event"); it went to that endpoint only.' }),
  data: z.record(z.string(), z.unknown()).meta({ description: 'The body every subscribed endpoint was sent.' }),
});

export const ZWebhookEventList = keysetList(ZWebhookEvent);

export type TWebhookEvent = z.output<typeof ZWebhookEvent>;
export type TWebhookEventList = z.output<typeof ZWebhookEventList>;
