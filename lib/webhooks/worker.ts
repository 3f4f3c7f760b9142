import 'server-only';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { env } from '@/lib/env';
import { log as rootLog } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { execute, sql } from '@/lib/sql';
import { claimMessages, heartbeat, releaseMessages, retireWorker, type ClaimedMessage } from './claim-messages';
import { deliverMessage, type DeliverySettings } from './deliver-message';
import { closeQueuePool, onHeartbeatConnectionLost } from './queue-pool';
import { successWriter } from './record-attempt';
import { onLocalWake, processWorkerIdPrefix } from './wake-workers';
import { countDelivery } from '@/lib/telemetry/metrics';
import type { Resolver } from './ssrf-guard';

const CHANNEL = 'webhook_messages';
/** An attempt starts only if its lease outlasts the timeout by this much (the write of its outcome). */
const LEASE_MARGIN_MS = 300;
/** While attempts are in flight, a wake-up waits this long so that one claim serves several free slots. */
const COALESCE_MS = 3;
/** Longest back-off between tries while the database is unreachable: deliveries resume within this of its return. */
const MAX_BACKOFF_MS = 5_000;

export interface WebhookWorker {
  /** Changes after a lost heartbeat. */
  readonly id: string;
  /** Stops claiming, lets attempts in flight finish (each within the timeout), releases the rest. */
  stop(): Promise<void>;
  /** For GET /readyz. */
  status(): { running: boolean; heartbeatAgeMs: number | null; staleAfterMs: number };
}

/**
 * The delivery loop; any number share one queue (claim-messages.ts), in the app or as its own process. It claims
 * only as many messages as it has free slots, and wakes on this process's commits, on NOTIFY, when a slot frees,
 * and every WEBHOOK_POLL_MS. "Never twice at once": it claims only while its last heartbeat is fresh; one that
 * cannot confirm a heartbeat for half the staleness cuts its attempts short and takes a new id
 * (docs/decisions/webhooks.md, "Heartbeats").
 */
export function startWebhookWorker(options: { resolver?: Resolver } = {}): WebhookWorker {
  const config = env();
  const newId = () => `${processWorkerIdPrefix()}${randomBytes(4).toString('hex')}`;
  let id = newId();
  const registered = new Set<string>();
  const log = rootLog.child({ component: 'webhook-worker', processId: id });
  const settings: DeliverySettings = {
    workerId: id,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    resolver: options.resolver,
    recordSuccess: successWriter(),
  };
  // A slot is a request to a receiver: an attempt leaves inFlight once its receiver has answered, and stays in
  // `recording` until its outcome is written (a success waits for the next batch of successes; under load that
  // commit took as long as the request, and attempts holding their slots through it left too few for a burst).
  const inFlight = new Set<Promise<void>>();
  const recording = new Set<Promise<void>>();
  // Outcomes waiting to be written are capped too: while their writes lag, claiming on would hold messages whose
  // leases run down before their outcome is written (and then send them again).
  const freeSlots = () => Math.min(config.WEBHOOK_CONCURRENCY - inFlight.size, 2 * config.WEBHOOK_CONCURRENCY - recording.size);
  const attempts = new Set<AbortController>();
  /** Half the staleness: a live worker gives up its claims well before anyone may take it for dead. */
  const fenceMs = Math.floor(config.WEBHOOK_WORKER_STALE_MS / 2);
  /** Local time the last confirmed heartbeat was sent; 0: none. */
  let beatSentAt = 0;
  let fenceTimer: ReturnType<typeof setTimeout> | undefined;
  let beating = true;
  const alive = () => beatSentAt > 0 && Date.now() - beatSentAt < fenceMs;
  let stopping = false;
  let wake: (() => void) | undefined;
  let pendingWake = false;
  let listener: pg.Client | undefined;
  let listenRetryMs = 500;

  const signal = () => {
    pendingWake = true;
    wake?.();
  };

  async function listen(): Promise<void> {
    if (stopping) return;
    const client = new pg.Client({ connectionString: config.DATABASE_URL, connectionTimeoutMillis: 5_000 });
    const reconnect = () => {
      if (listener !== client) return;
      listener = undefined;
      if (!stopping) setTimeout(() => void listen(), listenRetryMs).unref();
      listenRetryMs = Math.min(listenRetryMs * 2, MAX_BACKOFF_MS);
    };
    client.on('notification', signal);
    client.on('error', (error) => {
      logRepeated(log, 'warn', 'webhook listener lost its connection', error, {}, { anyError: true });
      reconnect();
    });
    client.on('end', reconnect);
    listener = client;
    try {
      await client.connect();
      await execute(client, sql`LISTEN ${sql.id(CHANNEL)}`);
      listenRetryMs = 500;
      signal(); // anything inserted while we were not listening
    } catch (error) {
      logRepeated(log, 'warn', 'webhook listener could not connect; polling meanwhile', error, {}, { anyError: true });
      client.end().catch(() => undefined);
      reconnect();
    }
  }

  /** Cut every attempt short before anyone may retake its message, and take a new id. */
  function fence(reason: 'stale' | 'connection'): void {
    // Stopped on purpose: the heartbeat connection closing next is not a loss.
    if (stopping && !beating) return;
    if (reason === 'stale' && beatSentAt === 0) return;
    if (reason === 'stale' && alive()) {
      // A timer may fire a millisecond early: look again when the heartbeat is really too old.
      fenceTimer = setTimeout(fence, beatSentAt + fenceMs - Date.now() + 1, 'stale');
      fenceTimer.unref?.();
      return;
    }
    const sinceBeatMs = beatSentAt === 0 ? null : Date.now() - beatSentAt;
    beatSentAt = 0;
    clearTimeout(fenceTimer);
    for (const attempt of attempts) attempt.abort('this worker could not renew its heartbeat');
    if (!stopping) id = newId();
    if (sinceBeatMs !== null || attempts.size > 0) {
      logRepeated(log, 'warn', 'webhook worker lost its heartbeat; attempts in flight were cut short', null, {
        reason,
        attemptsCut: attempts.size,
        sinceBeatMs,
      });
    }
  }

  async function beatLoop(): Promise<void> {
    let failures = 0;
    while (beating) {
      const sentAt = Date.now();
      const loopBefore = performance.eventLoopUtilization();
      const beatId = id;
      try {
        const freed = await heartbeat({ workerId: beatId, staleMs: config.WEBHOOK_WORKER_STALE_MS });
        failures = 0;
        const tookMs = Date.now() - sentAt;
        if (tookMs > fenceMs / 2) {
          // Held up by this process's own thread (loading Next's code after the start, say) rather than by the database
          // or the link to it: said, but not as a warning that pages someone.
          const busy = performance.eventLoopUtilization(loopBefore).utilization;
          const level = busy > 0.5 ? 'info' : 'warn';
          logRepeated(log, level, 'webhook worker heartbeat was slow', null, {
            tookMs,
            threadBusy: Math.round(busy * 100) / 100,
          });
        }
        registered.add(beatId);
        if (beatId === id && Date.now() - sentAt < fenceMs) {
          const wasDead = !alive();
          beatSentAt = sentAt;
          clearTimeout(fenceTimer);
          fenceTimer = setTimeout(fence, sentAt + fenceMs - Date.now(), 'stale');
          fenceTimer.unref?.();
          if (wasDead || freed > 0) signal();
        }
        if (freed > 0) log.info({ freed }, 'freed the claims of a webhook worker that stopped beating');
      } catch (error) {
        failures += 1;
        logRepeated(log, 'warn', 'webhook worker heartbeat failed', error, {}, { anyError: true });
      }
      const waitMs =
        failures > 0
          ? Math.min(config.WEBHOOK_HEARTBEAT_MS * 2 ** (failures - 1), MAX_BACKOFF_MS / 5)
          : config.WEBHOOK_HEARTBEAT_MS;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + waitMs - Date.now())));
    }
  }

  function run(message: ClaimedMessage): void {
    const attempt = new AbortController();
    attempts.add(attempt);
    const task = (async () => {
      try {
        if (
          Date.now() + config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS > message.leaseUntil.getTime() ||
          !alive() ||
          message.claimedBy !== id
        ) {
          // Too little lease or too stale a heartbeat to keep the claim: give it back.
          logRepeated(log, 'warn', 'webhook worker gave back a claim it could not start in time', null, {
            sinceBeatMs: Date.now() - beatSentAt,
          });
          await releaseMessages({ workerId: message.claimedBy, ids: [message.id] });
          return;
        }
        const result = await deliverMessage(
          message,
          { ...settings, workerId: message.claimedBy, onAnswered: free },
          attempt.signal,
        );
        countDelivery(result);
        log.debug({ messageId: message.id, endpointId: message.endpointId, result }, 'webhook attempt');
      } catch (error) {
        // Left claimed: the heartbeat sweep or the lease frees it. At least once, never lost.
        countDelivery('error');
        logRepeated(log, 'error', 'webhook attempt could not be recorded', error, { messageId: message.id });
      } finally {
        attempts.delete(attempt);
      }
    })();
    let slotHeld = true;
    function free(): void {
      if (!slotHeld) return;
      slotHeld = false;
      inFlight.delete(task);
      signal();
    }
    inFlight.add(task);
    recording.add(task);
    void task.finally(() => {
      recording.delete(task);
      free();
    });
  }

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      const free = freeSlots();
      let claimedAll = false;
      if (free > 0 && alive()) {
        try {
          pendingWake = false;
          const claimed = await claimMessages({ workerId: id, limit: free, leaseMs: config.WEBHOOK_LEASE_MS });
          failures = 0;
          if (stopping) {
            await releaseMessages({ workerId: claimed[0]?.claimedBy ?? id, ids: claimed.map((m) => m.id) });
            break;
          }
          for (const message of claimed) run(message);
          claimedAll = claimed.length === free;
        } catch (error) {
          failures += 1;
          logRepeated(log, 'warn', 'claiming webhook messages failed', error, {}, { anyError: true });
        }
      }
      if (claimedAll && !pendingWake) continue; // more may be due: claim again at once
      if (pendingWake && free > 0 && failures === 0 && alive()) {
        // Let attempts finishing about now free their slots too, then claim them in one query.
        if (inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
        continue;
      }
      const waitMs = failures > 0 ? Math.min(config.WEBHOOK_POLL_MS * 2 ** failures, MAX_BACKOFF_MS) : config.WEBHOOK_POLL_MS;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
        if (pendingWake && failures === 0 && freeSlots() > 0 && alive()) done();
      });
    }
  })();

  onHeartbeatConnectionLost(() => fence('connection'));
  const stopLocalWake = onLocalWake(signal);
  const beats = beatLoop();
  void listen();
  log.info({ concurrency: config.WEBHOOK_CONCURRENCY, leaseMs: config.WEBHOOK_LEASE_MS }, 'webhook worker started');

  return {
    get id() {
      return id;
    },
    status: () => ({
      running: !stopping,
      heartbeatAgeMs: beatSentAt === 0 ? null : Date.now() - beatSentAt,
      staleAfterMs: fenceMs,
    }),
    async stop() {
      if (stopping) return loop;
      stopping = true;
      stopLocalWake();
      wake?.();
      await loop;
      await Promise.allSettled([...recording]);
      // Beat until every attempt has ended, then retire so anything still held is freed at once.
      beating = false;
      clearTimeout(fenceTimer);
      await beats;
      await retireWorker([...registered]).catch(() => undefined);
      const closing = listener;
      listener = undefined;
      await closing?.end().catch(() => undefined);
      await closeQueuePool().catch(() => undefined);
      log.info('webhook worker stopped');
    },
  };
}
