import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { newId } from '@/lib/ids';
import { execute, queryRows, queryRow, sql, type Queryable, type Sql } from '@/lib/sql';

/** package.sorting's `data`: a package manifest was accepted. */
export interface PackageSortingPayload {
  manifest_id: string;
  package_count: number;
  tracking_numbers: string[];
}

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

/**
 * The outbox write, as common table expressions to put in a statement's WITH list: `webhook_event`
 * inserts the event, `webhook_deliveries` one pending message per enabled endpoint subscribed to it
 * (the messages' insert trigger wakes the delivery workers). With `onlyIf`, nothing is written unless
 * that condition holds, so a producer writes its row and its event in ONE statement (the package hot
 * path: the event only if the package was new). A message's id is its event's random part and the
 * endpoint's ordinal, so no id costs a round trip (newId's format: prefix, then [0-9a-z]).
 *
 * This, enqueueEvent() and enqueueEvents() below are the only code that writes webhook_events and webhook_messages.
 */
export function eventOutboxCtes(event: WebhookEventInput, options: { eventId?: string; onlyIf?: Sql<unknown> } = {}): Sql<never> {
  const eventId = options.eventId ?? newId('evt');
  return sql`webhook_event AS (
      INSERT INTO webhook_events (id, account_id, environment, event_type, payload, is_test)
      SELECT ${eventId}::text, ${event.accountId}::uuid, ${event.environment}::"Environment", ${event.eventType}::text,
             ${JSON.stringify(event.payload)}::jsonb, ${event.isTest ?? false}::boolean
      ${options.onlyIf ? sql`WHERE ${options.onlyIf}` : sql.empty}
      RETURNING id
    ), webhook_deliveries AS (
      INSERT INTO webhook_messages (id, event_id, endpoint_id)
      SELECT 'msg_' || substr(ev.id, 5) || row_number() OVER (ORDER BY e.id), ev.id, e.id
      FROM webhook_event ev CROSS JOIN webhook_endpoints e
      WHERE e.account_id = ${event.accountId}::uuid AND e.environment = ${event.environment}::"Environment" AND e.enabled
        AND ${event.eventType}::text = ANY(e.events)
        ${event.endpointId === undefined ? sql.empty : sql`AND e.id = ${event.endpointId}::text`}
      RETURNING id
    )`;
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
}

/**
 * Many events in one statement (a producer that changes thousands of rows at once: lib/lifecycle's engine).
 * Unlike enqueueEvent(), only events that some enabled endpoint of their account and environment subscribes
 * to are stored (one lookup over the batch's accounts first, so a batch for accounts without webhooks writes
 * nothing and builds no payload). Each stored event gets one pending message per enabled endpoint subscribed to
 * its type, ids as enqueueEvent's (event: newId('evt'); message: the event's random part and the endpoint's
 * ordinal). Deliveries are due 1 ms apart in the batch's order, so that a worker claims them in that order.
 * Run it in the transaction of the change it reports. Resolves to the number of events stored.
 */
export async function enqueueEvents(on: Queryable, events: readonly BatchWebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const subscribed = await queryRows(
    on,
    sql<{ key: string }>`SELECT DISTINCT account_id || '|' || environment || '|' || unnest(events) AS key FROM webhook_endpoints
     WHERE account_id = ANY(${[...new Set(events.map((e) => e.accountId))]}::uuid[]) AND enabled`,
  );
  if (subscribed.length === 0) return 0;
  const wanted = new Set(subscribed.map((r) => r.key));
  const sent = events.filter((e) => wanted.has(`${e.accountId}|${e.environment}|${e.eventType}`));
  if (sent.length === 0) return 0;
  const ids = sent.map(() => newId('evt'));
  await execute(
    on,
    sql`WITH ev AS (
       INSERT INTO webhook_events (id, account_id, environment, event_type, payload, is_test)
       SELECT id, account_id, environment, event_type, payload, false
       FROM unnest(${ids}::text[], ${sent.map((e) => e.accountId)}::uuid[], ${sent.map((e) => e.environment)}::"Environment"[],
                   ${sent.map((e) => e.eventType)}::text[], ${sent.map((e) => JSON.stringify(e.payload()))}::jsonb[])
            AS v(id, account_id, environment, event_type, payload)
       RETURNING id, account_id, environment, event_type
     )
     INSERT INTO webhook_messages (id, event_id, endpoint_id, next_attempt_at)
     SELECT 'msg_' || substr(ev.id, 5) || row_number() OVER (PARTITION BY ev.id ORDER BY e.id), ev.id, e.id,
            statement_timestamp() + make_interval(secs => o.ordinal / 1000.0)
     FROM ev JOIN unnest(${ids}::text[]) WITH ORDINALITY AS o(id, ordinal) ON o.id = ev.id
     JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.environment = ev.environment
                              AND e.enabled AND ev.event_type = ANY(e.events)`,
  );
  return sent.length;
}
