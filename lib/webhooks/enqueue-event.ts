import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { newId } from '@/lib/ids';
import { execute, queryRows, queryRow, sql, type Queryable, type Sql } from '@/lib/sql';

/** An event to notify: stored once, delivered once per enabled endpoint of its account and environment subscribed to its type. */
export interface WebhookEventInput {
  accountId: string;
  environment: Environment;
  /** One of WEBHOOK_EVENT_TYPES (lib/schemas/webhooks.ts). */
  eventType: string;
  payload: object;
  /** A test event (the endpoint's "send test event"): stored with is_test, sent with `x-carrier-test-event: true`. */
  isTest?: boolean;
  /** Only this endpoint (if it is enabled and subscribed), not every subscribed one. */
  endpointId?: string;
}

/** An event as the outbox stores it: its id chosen beforehand, its payload already built. */
interface OutboxRow {
  id: string;
  accountId: string;
  environment: Environment;
  eventType: string;
  payload: object;
  isTest: boolean;
  endpointId: string | undefined;
  /** Deliveries with the same key go to an endpoint one at a time, in the order written (claim-messages.ts). */
  orderingKey: string | null;
}

/**
 * The outbox write as WITH-list CTEs: the events, and one pending message per enabled subscribed endpoint (the
 * insert trigger wakes the workers). Message ids derive from the event's id and the endpoint's ordinal, so no id
 * costs a round trip. Nothing else writes webhook_events or webhook_messages.
 */
function outboxCtes(events: readonly OutboxRow[], options: { onlyIf?: Sql<unknown>; dueInOrder?: boolean } = {}): Sql<never> {
  const ids = events.map((e) => e.id);
  return sql`webhook_event AS (
      INSERT INTO webhook_events (id, account_id, environment, event_type, payload, is_test)
      SELECT v.id, v.account_id, v.environment, v.event_type, v.payload, v.is_test
      FROM unnest(${ids}::text[], ${events.map((e) => e.accountId)}::uuid[], ${events.map((e) => e.environment)}::"Environment"[],
                  ${events.map((e) => e.eventType)}::text[], ${events.map((e) => JSON.stringify(e.payload))}::jsonb[],
                  ${events.map((e) => e.isTest)}::boolean[]) WITH ORDINALITY AS v(id, account_id, environment, event_type, payload, is_test, ordinal)
      ${options.onlyIf ? sql`WHERE ${options.onlyIf}` : sql.empty}
      -- seq is drawn as rows are inserted: in the order the producer wrote the events.
      ORDER BY v.ordinal
      RETURNING id, account_id, environment, event_type
    ), webhook_deliveries AS (
      INSERT INTO webhook_messages (id, event_id, endpoint_id, ordering_key, seq${options.dueInOrder ? sql`, next_attempt_at` : sql.empty})
      SELECT d.id, d.event_id, d.endpoint_id, d.ordering_key, CASE WHEN d.ordering_key IS NOT NULL THEN nextval('webhook_message_seq') END
             ${options.dueInOrder ? sql`, d.due` : sql.empty}
      -- The order numbers are taken over rows already in the events' order (the subquery's ORDER BY).
      FROM (
        SELECT 'msg_' || substr(ev.id, 5) || row_number() OVER (PARTITION BY ev.id ORDER BY e.id) AS id, ev.id AS event_id, e.id AS endpoint_id,
               o.ordering_key, statement_timestamp() + make_interval(secs => o.ordinal / 1000.0) AS due
        FROM webhook_event ev
        JOIN unnest(${ids}::text[], ${events.map((e) => e.endpointId ?? null)}::text[], ${events.map((e) => e.orderingKey)}::text[])
             WITH ORDINALITY AS o(id, endpoint_id, ordering_key, ordinal) ON o.id = ev.id
        JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.environment = ev.environment AND e.enabled
                                 AND ev.event_type = ANY(e.events) AND (o.endpoint_id IS NULL OR e.id = o.endpoint_id)
        ORDER BY o.ordinal, e.id
      ) AS d
      RETURNING id
    )`;
}

function outboxRow(event: WebhookEventInput, eventId: string): OutboxRow {
  return { ...event, id: eventId, isTest: event.isTest ?? false, endpointId: event.endpointId, orderingKey: null };
}

/** One event's outbox write, for a producer that writes its row and its event in ONE statement. */
export function eventOutboxCtes(event: WebhookEventInput, options: { eventId?: string; onlyIf?: Sql<unknown> } = {}): Sql<never> {
  return outboxCtes([outboxRow(event, options.eventId ?? newId('evt'))], { onlyIf: options.onlyIf });
}

/** Many events' outbox write, each with its id chosen beforehand, for a producer that writes their rows in ONE statement. */
export function eventsOutboxCtes(
  events: readonly (WebhookEventInput & { id: string })[],
  options: { onlyIf?: Sql<unknown> } = {},
): Sql<never> {
  return outboxCtes(
    events.map((e) => outboxRow(e, e.id)),
    options,
  );
}

/**
 * Writes an event and its pending deliveries in one statement. Pass a pgTransaction() client so the event commits
 * (or not) with the change it reports; the event is stored even when no endpoint is subscribed.
 */
export async function enqueueEvent(on: Queryable, event: WebhookEventInput): Promise<{ eventId: string; messageIds: string[] }> {
  const eventId = newId('evt');
  const row = await queryRow(
    on,
    sql<{ message_ids: string[] }>`
      WITH ${eventOutboxCtes(event, { eventId })}
      SELECT COALESCE((SELECT array_agg(id ORDER BY id) FROM webhook_deliveries), '{}') AS message_ids`,
  );
  return { eventId, messageIds: row?.message_ids ?? [] };
}

/** One event of a batch for enqueueEvents(): its payload is built only if some endpoint subscribes to it. */
export interface BatchWebhookEvent {
  accountId: string;
  environment: Environment;
  /** One of WEBHOOK_EVENT_TYPES (lib/schemas/webhooks.ts). */
  eventType: string;
  /** Called only for an event that some enabled endpoint subscribes to. */
  payload: () => object;
  /** An endpoint gets one subject's deliveries one at a time, in the order written. */
  orderingKey?: string;
}

/**
 * Many events in one statement, in the transaction of the change they report. Unlike enqueueEvent(), only events
 * some endpoint subscribes to are stored (a batch for accounts without webhooks writes nothing and builds no
 * payload). Deliveries are due 1 ms apart in batch order so that workers claim them in that order.
 */
export async function enqueueEvents(
  on: Queryable,
  events: readonly BatchWebhookEvent[],
  /** Refuses the batch (throws before writing) when it would make more deliveries than this. */
  limit?: { maxDeliveries: number; refuse: (deliveries: number) => Error },
): Promise<number> {
  if (events.length === 0) return 0;
  const subscribed = await queryRows(
    on,
    sql<{
      key: string;
      endpoints: number;
    }>`SELECT account_id || '|' || environment || '|' || event AS key, count(*)::int AS endpoints
     FROM webhook_endpoints, unnest(events) AS event
     WHERE account_id = ANY(${[...new Set(events.map((e) => e.accountId))]}::uuid[]) AND enabled GROUP BY 1`,
  );
  if (subscribed.length === 0) return 0;
  const endpoints = new Map(subscribed.map((r) => [r.key, r.endpoints]));
  const sent = events.filter((e) => endpoints.has(`${e.accountId}|${e.environment}|${e.eventType}`));
  if (sent.length === 0) return 0;
  if (limit) {
    const deliveries = sent.reduce((sum, e) => sum + (endpoints.get(`${e.accountId}|${e.environment}|${e.eventType}`) ?? 0), 0);
    if (deliveries > limit.maxDeliveries) throw limit.refuse(deliveries);
  }
  const rows = sent.map((e) => ({
    ...e,
    id: newId('evt'),
    payload: e.payload(),
    isTest: false,
    endpointId: undefined,
    orderingKey: e.orderingKey ?? null,
  }));
  await execute(on, sql`WITH ${outboxCtes(rows, { dueInOrder: true })} SELECT 1`);
  return sent.length;
}
