import 'server-only';
import { sql } from '@/lib/sql';
import { COUNTER_SHARD } from '@/lib/sharded-counters';
import { queueQuery } from './queue-pool';

export type AttemptOutcome = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

/**
 * Logs one attempt and moves its message on in one statement (only while this worker still holds its claim), and
 * updates the endpoint's health: 410 Gone or `disableAfterMs` without a success disables it. The first success
 * after failures makes the endpoint's waiting retries due now: the receiver is back. Only a success does this, so a
 * down endpoint is never tried faster than its schedule.
 */
export async function recordAttempt(options: {
  messageId: string;
  endpointId: string;
  workerId: string;
  attemptNumber: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  requestHeaders: Record<string, string> | null;
  error: string | null;
  success: boolean;
  outcome: AttemptOutcome;
  gone: boolean;
  disableAfterMs: number;
}): Promise<void> {
  const o = options;
  const status = o.outcome.kind === 'retry' ? 'pending' : o.outcome.kind;
  const delayMs = o.outcome.kind === 'retry' ? o.outcome.delayMs : 0;
  const goneReason = `The endpoint answered 410 Gone on ${o.attemptedAt.toISOString()}; it was disabled and gets no more deliveries until enabled again.`;
  const failingSuffix = ` failed, with no success for ${describeSpan(o.disableAfterMs)}; the endpoint was disabled.`;
  await queueQuery(sql`
    WITH message AS (
      UPDATE webhook_messages
      SET status = ${status}::text, attempt_count = ${o.attemptNumber}, redelivery = false,
          next_attempt_at = now() + ${delayMs}::int * interval '1 millisecond',
          locked_by = NULL, locked_until = NULL, updated_at = now()
      WHERE id = ${o.messageId} AND locked_by = ${o.workerId} AND status = 'delivering'
      RETURNING id
    ), attempt AS (
      INSERT INTO webhook_attempts (message_id, endpoint_id, attempt_number, attempted_at, status_code, duration_ms,
                                    response_body, error, success, request_headers)
      SELECT ${o.messageId}, ${o.endpointId}, ${o.attemptNumber}, ${o.attemptedAt}::timestamptz, ${o.statusCode}::int, ${o.durationMs}::int,
             ${o.responseBody}::text, ${o.error}::text, ${o.success}::boolean,
             ${o.requestHeaders === null ? null : JSON.stringify(o.requestHeaders)}::jsonb
      -- Logged even if the claim was lost (it was a real attempt); not if the endpoint was deleted meanwhile.
      WHERE EXISTS (SELECT 1 FROM webhook_messages WHERE id = ${o.messageId})
      RETURNING id
    ), counted AS (
      -- The dashboard's rollup of attempts (activity_days, one of the day's shards: lib/sharded-counters.ts).
      INSERT INTO activity_days AS d (account_id, environment, day, shard, webhook_attempts, webhook_successes)
      SELECT f.account_id, f.environment, (${o.attemptedAt}::timestamptz AT TIME ZONE 'UTC')::date, ${COUNTER_SHARD}, 1,
             CASE WHEN ${o.success}::boolean THEN 1 ELSE 0 END
      FROM attempt JOIN webhook_endpoints f ON f.id = ${o.endpointId}
      ON CONFLICT (account_id, environment, day, shard) DO UPDATE
      SET webhook_attempts = d.webhook_attempts + 1, webhook_successes = d.webhook_successes + excluded.webhook_successes
    ), recovered AS (
      UPDATE webhook_messages p SET next_attempt_at = now(), updated_at = now()
      WHERE ${o.success}::boolean AND p.endpoint_id = ${o.endpointId} AND p.status = 'pending' AND p.next_attempt_at > now()
        AND p.id <> ${o.messageId}
        AND EXISTS (SELECT 1 FROM webhook_endpoints f WHERE f.id = ${o.endpointId} AND f.failing_since IS NOT NULL AND f.enabled)
      RETURNING p.id
    )
    UPDATE webhook_endpoints e
    SET failing_since = CASE WHEN ${o.success}::boolean THEN NULL ELSE COALESCE(e.failing_since, ${o.attemptedAt}::timestamptz) END,
        enabled = CASE
          WHEN ${o.success}::boolean THEN e.enabled
          WHEN ${o.gone}::boolean THEN false
          WHEN e.failing_since <= now() - ${o.disableAfterMs}::bigint * interval '1 millisecond' THEN false
          ELSE e.enabled END,
        disabled_reason = CASE
          WHEN ${o.success}::boolean OR NOT e.enabled THEN e.disabled_reason
          WHEN ${o.gone}::boolean THEN ${goneReason}::text
          WHEN e.failing_since <= now() - ${o.disableAfterMs}::bigint * interval '1 millisecond'
            THEN 'Every delivery attempt since ' || to_char(e.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                 || ${failingSuffix}::text
          ELSE e.disabled_reason END
    WHERE e.id = ${o.endpointId}
      AND (NOT ${o.success}::boolean OR e.failing_since IS NOT NULL)`);
}

export interface SuccessfulAttempt {
  messageId: string;
  endpointId: string;
  workerId: string;
  attemptNumber: number;
  attemptedAt: Date;
  statusCode: number;
  durationMs: number;
  responseBody: string | null;
  requestHeaders: Record<string, string> | null;
}

/**
 * recordAttempt() for many successes in one statement and one commit: one statement per attempt kept the queue
 * pool busy with commits (docs/decisions/delivery-latency-and-start.md). Failures stay one at a time: an endpoint's
 * run of failures must be applied in order.
 */
export async function recordSuccesses(attempts: readonly SuccessfulAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const ids = attempts.map((a) => a.messageId);
  const endpoints = [...new Set(attempts.map((a) => a.endpointId))];
  await queueQuery(sql`
    WITH o AS (
      SELECT * FROM unnest(${ids}::text[], ${attempts.map((a) => a.endpointId)}::text[], ${attempts.map((a) => a.workerId)}::text[],
                           ${attempts.map((a) => a.attemptNumber)}::int[], ${attempts.map((a) => a.attemptedAt)}::timestamptz[],
                           ${attempts.map((a) => a.statusCode)}::int[], ${attempts.map((a) => a.durationMs)}::int[],
                           ${attempts.map((a) => a.responseBody)}::text[],
                           ${attempts.map((a) => (a.requestHeaders === null ? null : JSON.stringify(a.requestHeaders)))}::jsonb[])
        AS o(message_id, endpoint_id, worker_id, attempt_number, attempted_at, status_code, duration_ms, response_body, request_headers)
    ), message AS (
      UPDATE webhook_messages m
      SET status = 'succeeded', attempt_count = o.attempt_number, redelivery = false, next_attempt_at = now(),
          locked_by = NULL, locked_until = NULL, updated_at = now()
      FROM o WHERE m.id = o.message_id AND m.locked_by = o.worker_id AND m.status = 'delivering'
      RETURNING m.id
    ), attempt AS (
      INSERT INTO webhook_attempts (message_id, endpoint_id, attempt_number, attempted_at, status_code, duration_ms,
                                    response_body, error, success, request_headers)
      SELECT o.message_id, o.endpoint_id, o.attempt_number, o.attempted_at, o.status_code, o.duration_ms, o.response_body,
             NULL, true, o.request_headers
      FROM o
      -- Logged even if the claim was lost (it was a real attempt); not if the endpoint was deleted meanwhile.
      WHERE EXISTS (SELECT 1 FROM webhook_messages WHERE id = o.message_id)
      RETURNING endpoint_id, attempted_at
    ), counted AS (
      INSERT INTO activity_days AS d (account_id, environment, day, shard, webhook_attempts, webhook_successes)
      SELECT f.account_id, f.environment, (a.attempted_at AT TIME ZONE 'UTC')::date, ${COUNTER_SHARD}, count(*), count(*)
      FROM attempt a JOIN webhook_endpoints f ON f.id = a.endpoint_id
      GROUP BY 1, 2, 3
      ON CONFLICT (account_id, environment, day, shard) DO UPDATE
      SET webhook_attempts = d.webhook_attempts + excluded.webhook_attempts,
          webhook_successes = d.webhook_successes + excluded.webhook_successes
    ), recovered AS (
      -- Not the batch's own messages: one statement must not update a row twice.
      UPDATE webhook_messages p SET next_attempt_at = now(), updated_at = now()
      WHERE p.endpoint_id = ANY(${endpoints}::text[]) AND p.status = 'pending' AND p.next_attempt_at > now()
        AND p.id <> ALL(${ids}::text[])
        AND EXISTS (SELECT 1 FROM webhook_endpoints f WHERE f.id = p.endpoint_id AND f.failing_since IS NOT NULL AND f.enabled)
      RETURNING p.id
    )
    UPDATE webhook_endpoints e SET failing_since = NULL
    WHERE e.id = ANY(${endpoints}::text[]) AND e.failing_since IS NOT NULL`);
}

/**
 * Writes successes in batches, at most one statement in flight and no timer: what finishes during a write goes in
 * the next. The returned function resolves once that success is written.
 */
export function successWriter(maxBatch = 500): (attempt: SuccessfulAttempt) => Promise<void> {
  let queued: { attempt: SuccessfulAttempt; done: (error?: Error) => void }[] = [];
  let writing = false;
  const flush = () => {
    if (writing || queued.length === 0) return;
    writing = true;
    const batch = queued.slice(0, maxBatch);
    queued = queued.slice(batch.length);
    recordSuccesses(batch.map((q) => q.attempt))
      .then(
        () => batch.forEach((q) => q.done()),
        (error: unknown) =>
          batch.forEach((q) =>
            q.done(error instanceof Error ? error : new Error(`recording the attempts failed: ${String(error)}`)),
          ),
      )
      .finally(() => {
        writing = false;
        flush();
      });
  };
  return (attempt) =>
    new Promise<void>((resolve, reject) => {
      queued.push({ attempt, done: (error) => (error === undefined ? resolve() : reject(error)) });
      // After this turn's other callbacks: the attempts that finished together go in one batch.
      if (!writing) setImmediate(flush);
    });
}

/** Ends a message without an attempt: its endpoint was disabled after the message was queued. */
export async function failUnsent(options: { messageId: string; workerId: string }): Promise<void> {
  await queueQuery(sql`
    UPDATE webhook_messages
    SET status = 'failed', locked_by = NULL, locked_until = NULL, updated_at = now()
    WHERE id = ${options.messageId} AND locked_by = ${options.workerId} AND status = 'delivering'`);
}

function describeSpan(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} days`;
  if (ms >= 3_600_000) return `${Math.round(ms / 3_600_000)} hours`;
  return `${Math.round(ms / 1_000)} seconds`;
}
