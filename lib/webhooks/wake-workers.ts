import 'server-only';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { sql, type Sql } from '@/lib/sql';
import { onQueuePoolClose, queueQuery } from './queue-pool';

// Workers are woken after the commit, not by the trigger: pg_notify in a commit takes a cluster-wide lock held until
// the commit is flushed, and the package hot path queued on it. This process's worker is woken directly; the others
// by a pg_notify in a transaction of its own (no commit record), at most one every SPACING_MS per process. Workers
// also poll, so a lost wake-up costs latency, never a delivery.

/** A select-list item: this transaction's deliveries wake the workers after its commit (wakeDeliveryWorkers). */
export const wakeAfterCommit: Sql<never> = sql`set_config('carrier.webhook_wake_after_commit', 'on', true)`;

// Other processes hear of commits at most this often. One pg_notify in flight at a time still sent one per package
// under load (a round trip takes about as long as a package does): a second statement and transaction per package,
// the costliest socket write on the serving thread after the package's own. Their workers hear of a commit at most
// this much later; this process's own is woken at once.
const SPACING_MS = 10;

let state: 'idle' | 'waiting' | 'sending' = 'idle';
let again = false;
// performance.now(): a wall clock stepped back would hold the next notification for as long.
let lastSentAt = Number.NEGATIVE_INFINITY;
let waiting: NodeJS.Timeout | undefined;

onQueuePoolClose(() => {
  clearTimeout(waiting);
  waiting = undefined;
  again = false;
  if (state === 'waiting') state = 'idle';
});
const local = new Set<() => void>();

/** The delivery worker of this process (worker.ts) hears wakeDeliveryWorkers() directly; returns the unsubscribe. */
export function onLocalWake(wake: () => void): () => void {
  local.add(wake);
  return () => local.delete(wake);
}

/** Wakes the delivery workers (this process's at once, every process LISTENing) about deliveries committed before this call. */
export function wakeDeliveryWorkers(): void {
  for (const wake of local) wake();
  notifyOtherProcesses();
}

function notifyOtherProcesses(): void {
  // A notification not yet sent covers this commit too; one already sent may have left before it.
  if (state === 'waiting') return;
  if (state === 'sending') {
    again = true;
    return;
  }
  const wait = lastSentAt + SPACING_MS - performance.now();
  if (wait <= 0) return send();
  state = 'waiting';
  waiting = setTimeout(send, Math.min(wait, SPACING_MS)).unref();
}

function send(): void {
  waiting = undefined;
  state = 'sending';
  lastSentAt = performance.now();
  queueQuery(sql`SELECT pg_notify('webhook_messages', '')`)
    .catch((error: unknown) => logRepeated(log, 'warn', 'could not wake the webhook workers; they will poll', error))
    .finally(() => {
      state = 'idle';
      if (again) {
        again = false;
        notifyOtherProcesses();
      }
    });
}
