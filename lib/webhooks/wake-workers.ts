import 'server-only';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { sql, type Sql } from '@/lib/sql';
import { queueQuery } from './queue-pool';

// Workers are woken after the commit, not by the trigger: pg_notify in a commit takes a cluster-wide lock held until
// the commit is flushed, and the package hot path queued on it. This process's worker is woken directly; the others
// by a pg_notify in a transaction of its own (no commit record), one in flight per process. Workers also poll, so a
// lost wake-up costs latency, never a delivery.

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
