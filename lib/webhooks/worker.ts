import 'server-only';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { env } from '@/lib/env';
import { log as rootLog } from '@/lib/log';
import { claimMessages, releaseMessages, type ClaimedMessage } from './claim-messages';
import { deliverMessage, type DeliverySettings } from './deliver-message';
import { closeQueuePool } from './queue-pool';
import type { Resolver } from './ssrf-guard';

const CHANNEL = 'webhook_messages';
/** An attempt starts only if its lease outlasts the timeout by this much (the write of its outcome). */
const LEASE_MARGIN_MS = 300;
/** While attempts are in flight, a wake-up waits this long so that one claim serves several free slots. */
const COALESCE_MS = 3;
/**
 * Longest wait between tries while the database is unreachable (claims and the LISTEN connection
 * both back off, doubling, up to this): deliveries resume within about this long of its return.
 */
const MAX_BACKOFF_MS = 5_000;

export interface WebhookWorker {
  readonly id: string;
  /** Stops claiming, lets attempts in flight finish (each within the timeout), releases the rest. */
  stop(): Promise<void>;
}

/**
 * The delivery loop. Runs inside the app (instrumentation.ts, scripts/api-server.ts) and as its own
 * process (scripts/worker.ts); any number of them share one queue (see claim-messages.ts). It claims
 * only as many messages as it has free slots, so every claimed message starts at once; it wakes on
 * NOTIFY from the webhook_messages trigger, when a slot frees, and every WEBHOOK_POLL_MS for retries
 * that come due and for notifications missed while the LISTEN connection was down.
 */
export function startWebhookWorker(options: { resolver?: Resolver } = {}): WebhookWorker {
  const config = env();
  const id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const log = rootLog.child({ component: 'webhook-worker', workerId: id });
  const settings: DeliverySettings = {
    workerId: id,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    schedule: config.WEBHOOK_RETRY_SCHEDULE_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    resolver: options.resolver,
  };
  const inFlight = new Set<Promise<void>>();
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
      log.warn({ err: error.message }, 'webhook listener lost its connection');
      reconnect();
    });
    client.on('end', reconnect);
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      listenRetryMs = 500;
      signal(); // anything inserted while we were not listening
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'webhook listener could not connect; polling meanwhile');
      client.end().catch(() => undefined);
      reconnect();
    }
  }

  function run(message: ClaimedMessage): void {
    const task = (async () => {
      try {
        if (Date.now() + config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS > message.leaseUntil.getTime()) {
          // Too little lease left to finish before another worker may retake it: give it back.
          await releaseMessages({ workerId: id, ids: [message.id] });
          return;
        }
        const result = await deliverMessage(message, settings);
        log.debug({ messageId: message.id, endpointId: message.endpointId, result }, 'webhook attempt');
      } catch (error) {
        // Left claimed: the lease runs out and any worker retries it. At least once, never lost.
        log.error({ err: error, messageId: message.id }, 'webhook attempt could not be recorded');
      }
    })();
    inFlight.add(task);
    void task.finally(() => {
      inFlight.delete(task);
      signal();
    });
  }

  const loop = (async () => {
    let failures = 0;
    while (!stopping) {
      const free = config.WEBHOOK_CONCURRENCY - inFlight.size;
      let claimedAll = false;
      if (free > 0) {
        try {
          pendingWake = false;
          const claimed = await claimMessages({ workerId: id, limit: free, leaseMs: config.WEBHOOK_LEASE_MS });
          failures = 0;
          if (stopping) {
            await releaseMessages({ workerId: id, ids: claimed.map((m) => m.id) });
            break;
          }
          for (const message of claimed) run(message);
          claimedAll = claimed.length === free;
        } catch (error) {
          failures += 1;
          log.warn({ err: (error as Error).message }, 'claiming webhook messages failed');
        }
      }
      if (claimedAll && !pendingWake) continue; // more may be due: claim again at once
      if (pendingWake && free > 0 && failures === 0) {
        // Busy: let the attempts finishing about now free their slots too, then claim them all in one query.
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
        if (pendingWake && failures === 0 && config.WEBHOOK_CONCURRENCY - inFlight.size > 0) done();
      });
    }
  })();

  void listen();
  log.info({ concurrency: config.WEBHOOK_CONCURRENCY, leaseMs: config.WEBHOOK_LEASE_MS }, 'webhook worker started');

  return {
    id,
    async stop() {
      if (stopping) return loop;
      stopping = true;
      wake?.();
      await loop;
      await Promise.allSettled([...inFlight]);
      const closing = listener;
      listener = undefined;
      await closing?.end().catch(() => undefined);
      await closeQueuePool().catch(() => undefined);
      log.info('webhook worker stopped');
    },
  };
}
