import 'server-only';
import { pgPool } from '@/lib/db';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { execute, sql, type Sql } from '@/lib/sql';

// Waking the delivery workers after a commit instead of in it. The webhook_messages trigger's pg_notify makes
// every notifying commit of the cluster take one lock in turn, held until its commit is flushed: the package hot
// path's statements queued on it (bench/RESULTS.md, 2026-11-23 "Counters without a hot row"). A writer that puts
// `wakeAfterCommit` into its statement turns the trigger off for its transaction and calls wakeDeliveryWorkers()
// once committed: a pg_notify in a transaction of its own writes no commit record, so it holds that lock for
// microseconds, and one is in flight per process at a time (more wake-ups meanwhile become one more after it).
// Workers also poll, so a wake-up lost with a dying process costs latency, never a delivery.

/** A select-list item: this transaction's deliveries wake the workers after its commit (wakeDeliveryWorkers). */
export const wakeAfterCommit: Sql<never> = sql`set_config('carrier.webhook_wake_after_commit', 'on', true)`;

let inFlight = false;
let again = false;

/** Wakes the delivery workers (every process LISTENing) about deliveries committed before this call. */
export function wakeDeliveryWorkers(): void {
  if (inFlight) {
    again = true;
    return;
  }
  inFlight = true;
  execute(pgPool(), sql`SELECT pg_notify('webhook_messages', '')`)
    .catch((error: unknown) => logRepeated(log, 'warn', 'could not wake the webhook workers; they will poll', error))
    .finally(() => {
      inFlight = false;
      if (again) {
        again = false;
        wakeDeliveryWorkers();
      }
    });
}
