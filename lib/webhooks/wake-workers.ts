import 'server-only';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { env } from '@/lib/env';
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

// On globalThis: Next's bundles hold their own copies of this module in the same process (its routes', its
// instrumentation's, where the worker may run), and a commit in any of them must reach the process's one worker and
// agree on which worker ids are this process's.
interface ProcessWake {
  local: Set<() => void>;
  /** Random per process: two containers can share a host name and a pid (1), and must not take each other's worker for their own. */
  prefix: string;
  others: { alive: boolean; checkedAt: number; checking: boolean };
}
const WAKE = Symbol.for('carrier.webhooks.process-wake');
const shared = ((globalThis as { [WAKE]?: ProcessWake })[WAKE] ??= {
  local: new Set(),
  prefix: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}:`,
  others: { alive: true, checkedAt: Number.NEGATIVE_INFINITY, checking: false },
});
const local = shared.local;

/** How worker ids start in this process (worker.ts): a heartbeat of any other id is another process's worker. */
export function processWorkerIdPrefix(): string {
  return shared.prefix;
}

// Only other processes' workers need the notify (this one's is woken directly), and with none alive the notify was a
// transaction per burst of commits for no one: about 5 % of PostgreSQL's CPU per accepted package. Whether one beat
// within the staleness (WEBHOOK_WORKER_STALE_MS, after which it would be taken for dead) is read at most every
// RECHECK_MS; an answer older than that counts as unknown, and unknown (before the first answer, after a failed one)
// means notify. A worker that starts meanwhile claims what is due at its start and polls: it loses nothing.
const RECHECK_MS = 1_000;

function othersMayListen(): boolean {
  const { others } = shared;
  const now = performance.now();
  if (now - others.checkedAt < RECHECK_MS) return others.alive;
  if (!others.checking) {
    others.checking = true;
    const prefix = processWorkerIdPrefix();
    queueQuery(
      sql<{ alive: boolean }>`SELECT EXISTS (
        SELECT 1 FROM webhook_workers
        WHERE heartbeat_at > now() - ${env().WEBHOOK_WORKER_STALE_MS}::int * interval '1 millisecond'
          AND left(id, ${prefix.length}::int) <> ${prefix}
      ) AS alive`,
    )
      .then(
        (rows) => (others.alive = rows[0]?.alive ?? true),
        () => (others.alive = true),
      )
      .finally(() => {
        others.checking = false;
        others.checkedAt = performance.now();
      });
  }
  return true;
}

/** The delivery worker of this process (worker.ts) hears wakeDeliveryWorkers() directly; returns the unsubscribe. */
export function onLocalWake(wake: () => void): () => void {
  local.add(wake);
  return () => local.delete(wake);
}

/** Wakes the delivery workers (this process's at once, other processes' through NOTIFY) about deliveries committed before this call. */
export function wakeDeliveryWorkers(): void {
  for (const wake of local) wake();
  if (!othersMayListen()) return;
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
