import 'server-only';
import { sql } from './queue-pool';
import type { Environment } from '@/lib/generated/prisma/enums';

export interface ClaimedMessage {
  id: string;
  endpointId: string;
  attemptCount: number;
  redelivery: boolean;
  /** When this claim's lease runs out: no attempt may start after that, less the timeout. */
  leaseUntil: Date;
  url: string;
  /** As stored: encrypted (secret-box.ts); opened only to sign. */
  secret: string;
  /** The secret a rotation replaced, while its overlap lasts (by the database's clock); else null. */
  previousSecret: string | null;
  enabled: boolean;
  environment: Environment;
  eventType: string;
  payload: unknown;
  isTest: boolean;
}

interface Row {
  id: string;
  endpoint_id: string;
  attempt_count: number;
  redelivery: boolean;
  url: string;
  secret: string;
  previous_secret: string | null;
  enabled: boolean;
  environment: Environment;
  event_type: string;
  payload: unknown;
  is_test: boolean;
}

/**
 * Claims up to `limit` due messages for this worker. Several workers (processes, machines) share
 * the queue: FOR UPDATE SKIP LOCKED hands each row to one claimer, and the claim is a lease. It
 * sets status `delivering` and moves next_attempt_at to the lease's end, so one condition finds
 * both due messages and the claims of a worker that died (SIGKILL, lost machine) once their lease
 * has run out.
 */
export async function claimMessages(options: { workerId: string; limit: number; leaseMs: number }): Promise<ClaimedMessage[]> {
  // Measured on this machine's clock, before the database starts the lease: never later than the
  // database's own lease end, whatever the clocks' offset.
  const leaseUntil = new Date(Date.now() + options.leaseMs);
  const rows = await sql<Row>`
    WITH due AS (
      SELECT id FROM webhook_messages
      WHERE status IN ('pending', 'delivering') AND next_attempt_at <= now()
      ORDER BY next_attempt_at
      LIMIT ${options.limit}::int
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_messages m
      SET status = 'delivering', locked_by = ${options.workerId}::text,
          locked_until = now() + ${options.leaseMs}::int * interval '1 millisecond',
          next_attempt_at = now() + ${options.leaseMs}::int * interval '1 millisecond', updated_at = now()
      FROM due WHERE m.id = due.id
      RETURNING m.id, m.endpoint_id, m.event_id, m.attempt_count, m.redelivery
    )
    SELECT c.id, c.endpoint_id, c.attempt_count, c.redelivery,
           e.url, e.secret, CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret, e.enabled, e.environment, ev.event_type, ev.payload, ev.is_test
    FROM claimed c
    JOIN webhook_endpoints e ON e.id = c.endpoint_id
    JOIN webhook_events ev ON ev.id = c.event_id`;
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    attemptCount: row.attempt_count,
    redelivery: row.redelivery,
    leaseUntil,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    enabled: row.enabled,
    environment: row.environment,
    eventType: row.event_type,
    payload: row.payload,
    isTest: row.is_test,
  }));
}

/** Gives claimed messages back (shutdown, or a lease too short to start on): due again at once. */
export async function releaseMessages(options: { workerId: string; ids: string[] }): Promise<void> {
  if (options.ids.length === 0) return;
  await sql`
    UPDATE webhook_messages
    SET status = 'pending', next_attempt_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now()
    WHERE id = ANY(${options.ids}::text[]) AND locked_by = ${options.workerId} AND status = 'delivering'`;
}
