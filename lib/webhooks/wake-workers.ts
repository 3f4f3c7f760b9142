import 'server-only';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { sql, type Sql } from '@/lib/sql';
import { queueQuery } from './queue-pool';

// Waking the delivery workers after a commit instead of in it. The webhook_messages trigger's pg_notify makes
// every notifying commit of the cluster take one lock in turn, held until its commit is flushed: the package hot
// path's statements queued on it (bench/results/2026-11.md, 2026-11-23 "Counters without a hot row"). A
// writer that puts `wakeAfterCommit` into its statement turns the trigger off for its transaction and calls
// wakeDeliveryWorkers() once committed. The worker in this process, if any, is woken at once, without a round trip;
// the others (other processes, other machines) by a pg_notify in a transaction of its own, which writes no commit
// record, so it holds that lock for microseconds; one is in flight per process at a time (more wake-ups meanwhile
// become one more after it). It goes on the delivery queue's pool, not the request pool, whose connections a burst
// of requests holds. Workers also poll, so a wake-up lost with a dying process costs latency, never a delivery.

/** A select-list item: this transaction's deliveries wake the workers after its commit (wakeDeliveryWorkers). */
export const wakeAfterCommit: Sql<never> = sql`set_config('carrier.webhook_wake_after_commit', 'on', true)`;

let inFlight = false;
let again = false;
const local = new Set<() => void>();

/** The delivery worker of this process (worker.ts) hears wakeDeliveryWorkers() directly; returns the unsubscribe. */
export function onLocalWake(wake: () => void): () => void {
  local.add(wake);
  return () => local.delete(wake);
}

/** Wakes the delivery workers (this process's at once, every process LISTENing) about deliveries committed before this call. */
export function wakeDeliveryWorkers(): void {
  for (const wake of local) wake();
  if (inFlight) {
    again = true;
    return;
  }
  inFlight = true;
  queueQuery(sql`SELECT pg_notify('webhook_messages', '')`)
    .catch((error: unknown) => logRepeated(log, 'warn', 'could not wake the webhook workers; they will poll', error))
    .finally(() => {
      inFlight = false;
      if (again) {
        again = false;
        wakeDeliveryWorkers();
      }
    });
}
