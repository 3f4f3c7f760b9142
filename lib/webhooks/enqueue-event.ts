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
  /** The event's `data`, as receivers get it. */
  payload: object;
  /** A test event (the endpoint's "send test event"): stored with is_test, sent with `x-carrier-test-event: true`. */
  isTest?: boolean;
  /** Only this endpoint (if it is enabled and subscribed), not every subscribed one. */
  endpointId?: string;
}

/** An event as the outbox stores it: its id chosen beforehand (newId('evt')), its payload already built. */
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
 * The one statement that writes the outbox, as common table expressions to put in a statement's WITH list:
 * `webhook_event` inserts the events, `webhook_deliveries` one pending message per enabled endpoint of the
 * event's account and environment subscribed to its type (only the event's endpointId, when it names one; the
 * messages' insert trigger wakes the delivery workers). With `onlyIf`, nothing is written unless that condition
 * holds. A message's id is its event's random part and the endpoint's ordinal, so no id costs a round trip
 * (newId's format: prefix, then [0-9a-z]). With `dueInOrder`, the deliveries are due 1 ms apart in the events'
 * order, so that a worker claims them in that order; otherwise they are due at once (the column's default).
 *
 * eventOutboxCtes(), enqueueEvent() and enqueueEvents() below write through it, and nothing else writes
 * webhook_events or webhook_messages.
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

/**
 * One event's outbox write (outboxCtes), for a producer that writes its row and its event in ONE statement:
 * with `onlyIf`, the event only if that condition holds (the package hot path: only if the package was new).
 */
export function eventOutboxCtes(event: WebhookEventInput, options: { eventId?: string; onlyIf?: Sql<unknown> } = {}): Sql<never> {
  return outboxCtes([outboxRow(event, options.eventId ?? newId('evt'))], { onlyIf: options.onlyIf });
}

/**
 * Writes an event and one pending delivery per enabled endpoint subscribed to it, in one statement.
 * `on` is pgPool() for an event alone, or a pgTransaction() client so that the event commits (or not)
 * with the change it reports. Resolves to the event's id and its messages' ids (none when no endpoint
 * is subscribed: the event is stored all the same).
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
  /** The event's `data`; called only for an event that some enabled endpoint subscribes to. */
  payload: () => object;
  /**
   * The event's subject (a package, a manifest): an endpoint gets the deliveries of one subject one at a time, in
   * the order they were written, a later one only once the earlier has succeeded or been given up.
   */
  orderingKey?: string;
}

/**
 * Many events in one statement (a producer that changes thousands of rows at once: lib/status's engine).
 * Unlike enqueueEvent(), only events that some enabled endpoint of their account and environment subscribes
 * to are stored (one lookup over the batch's accounts first, so a batch for accounts without webhooks writes
 * nothing and builds no payload). Each stored event gets one pending message per enabled endpoint subscribed to
 * its type, ids as enqueueEvent's (event: newId('evt'); message: the event's random part and the endpoint's
 * ordinal). Deliveries are due 1 ms apart in the batch's order, so that a worker claims them in that order, and
 * those of one `orderingKey` are made one at a time in that order (claim-messages.ts).
 * Run it in the transaction of the change it reports. Resolves to the number of events stored.
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
