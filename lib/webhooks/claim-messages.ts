import 'server-only';
import { sql } from '@/lib/sql';
import { heartbeatQuery, queueQuery } from './queue-pool';
import type { Environment } from '@/lib/generated/prisma/enums';

export interface ClaimedMessage {
  id: string;
  /** The worker id the claim was made under (locked_by): the outcome is written only while it still holds. */
  claimedBy: string;
  endpointId: string;
  attemptCount: number;
  redelivery: boolean;
  /** When this claim's lease runs out: no attempt may start after that, less the timeout. */
  leaseUntil: Date;
  url: string;
  /** Encrypted (secret-box.ts); opened only to sign. */
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
 * Claims up to `limit` due messages under a lease: FOR UPDATE SKIP LOCKED hands each row to one worker, and
 * next_attempt_at moves to the lease's end, so one condition finds due messages and an expired claim alike.
 */
export async function claimMessages(options: { workerId: string; limit: number; leaseMs: number }): Promise<ClaimedMessage[]> {
  // Taken before the database starts the lease: never later than its lease end, whatever the clocks' offset.
  const leaseUntil = new Date(Date.now() + options.leaseMs);
  const rows = await queueQuery(sql<Row>`
    WITH due AS (
      SELECT id FROM webhook_messages m
      WHERE status IN ('pending', 'delivering') AND next_attempt_at <= now()
        -- In order per subject: not while an earlier message of its endpoint and key is open (pending, being
        -- delivered, or waiting for its retry); it comes due once that one has succeeded or been given up.
        AND (m.ordering_key IS NULL OR NOT EXISTS (
          SELECT 1 FROM webhook_messages p
          WHERE p.endpoint_id = m.endpoint_id AND p.ordering_key = m.ordering_key AND p.seq < m.seq
            AND p.status IN ('pending', 'delivering')))
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
    JOIN webhook_events ev ON ev.id = c.event_id`);
  return rows.map((row) => ({
    id: row.id,
    claimedBy: options.workerId,
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

/** Due again at once. */
export async function releaseMessages(options: { workerId: string; ids: string[] }): Promise<void> {
  if (options.ids.length === 0) return;
  await queueQuery(sql`
    UPDATE webhook_messages
    SET status = 'pending', next_attempt_at = now(), locked_by = NULL, locked_until = NULL, updated_at = now()
    WHERE id = ANY(${options.ids}::text[]) AND locked_by = ${options.workerId} AND status = 'delivering'`);
}

/**
 * Registers `workerId` with its heartbeat connection's backend, and frees at once the claims of dead workers:
 * backend gone (the process died) or heartbeat older than `staleMs`. A freed row keeps `locked_by` until
 * reclaimed, so an outcome its old claimer writes meanwhile still counts. Returns how many claims it freed.
 */
export async function heartbeat(options: { workerId: string; staleMs: number }): Promise<number> {
  const rows = await heartbeatQuery(sql<{ freed: number }>`
    WITH beat AS (
      INSERT INTO webhook_workers (id, backend_pid, backend_start)
      SELECT ${options.workerId}::text, pg_backend_pid(), (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid())
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
      RETURNING id
    ), dead AS (
      SELECT w.id FROM webhook_workers w
      WHERE w.id <> ${options.workerId}::text
        AND (w.heartbeat_at < now() - ${options.staleMs}::int * interval '1 millisecond'
             OR (w.backend_pid IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM pg_stat_activity a WHERE a.pid = w.backend_pid AND a.backend_start = w.backend_start)))
    ), orphans AS (
      -- SKIP LOCKED: never wait for (or deadlock with) another worker's sweep or claim of the same rows.
      SELECT m.id FROM webhook_messages m JOIN dead ON m.locked_by = dead.id
      WHERE m.status = 'delivering' AND m.next_attempt_at > now()
      FOR UPDATE OF m SKIP LOCKED
    ), freed AS (
      UPDATE webhook_messages m SET next_attempt_at = now(), updated_at = now()
      FROM orphans WHERE m.id = orphans.id
      RETURNING m.id
    ), forgotten AS (
      DELETE FROM webhook_workers w
      WHERE w.heartbeat_at < now() - interval '1 hour' AND w.id <> ${options.workerId}::text
        AND NOT EXISTS (SELECT 1 FROM webhook_messages m WHERE m.status = 'delivering' AND m.locked_by = w.id)
      RETURNING w.id
    )
    SELECT (SELECT count(*) FROM freed)::int AS freed, (SELECT count(*) FROM beat)::int AS beat,
           (SELECT count(*) FROM forgotten)::int AS forgotten`);
  return rows[0]?.freed ?? 0;
}

/** A worker that stopped (every attempt ended) marks itself dead, so anything it still holds is freed at once. */
export async function retireWorker(workerIds: string[]): Promise<void> {
  if (workerIds.length === 0) return;
  await queueQuery(sql`UPDATE webhook_workers SET heartbeat_at = '-infinity' WHERE id = ANY(${workerIds}::text[])`);
}
