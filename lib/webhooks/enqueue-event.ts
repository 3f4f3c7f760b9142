import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { newId } from '@/lib/ids';
import { queryRow, sql, type Queryable, type Sql } from '@/lib/sql';

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
 * This and enqueueEvent() below are the only code that writes webhook_events and webhook_messages.
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
