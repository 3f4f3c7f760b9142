import 'server-only';
import type { Cluster, Worker } from 'node:cluster';
import { createServer, type Server } from 'node:http';
import pg from 'pg';
import { queryRow, sql } from '@/lib/sql';
import client from 'prom-client';
import { carriesToken, METRICS_CONTENT_TYPE } from '@/lib/telemetry/metrics';

// Each cluster worker keeps its own counters: the supervisor asks every worker over IPC and sums them, leaving out
// one that does not answer within WORKER_REPLY_MS.

const WORKER_REPLY_MS = 2_000;
/** Scrapes within this long of each other share one queue query. */
const QUEUE_CACHE_MS = 1_000;

export const METRICS_REQUEST = 'carrier:metrics-request';
export const METRICS_REPLY = 'carrier:metrics-reply';
export const METRICS_JSON_REQUEST = 'carrier:metrics-json-request';
export const METRICS_JSON_REPLY = 'carrier:metrics-json-reply';

type Message = { type?: unknown; id?: unknown; metrics?: unknown; text?: unknown };

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null;
}

interface QueueRow {
  pending: number;
  delivering: number;
  due: number;
  oldest_age: number | null;
  oldest_due_wait: number | null;
}

export interface SupervisorOps {
  metricsText(): Promise<string>;
  close(): Promise<void>;
}

export async function startSupervisorOps(options: {
  cluster: Cluster;
  databaseUrl: string;
  readyWorkers: () => number;
  metricsPort?: number;
  metricsBindAddress?: string;
  metricsToken?: string;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void };
}): Promise<SupervisorOps> {
  const { cluster } = options;
  const registry = new client.Registry();
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 1,
    connectionTimeoutMillis: 2_000,
    query_timeout: 2_000,
    idleTimeoutMillis: 60_000,
    application_name: 'carrier metrics',
  });
  pool.on('error', () => undefined);

  let queue: { at: number; row: QueueRow | undefined } | undefined;
  let queueQuery: Promise<QueueRow | undefined> | undefined;
  // One query over the open messages only, on the (status, next_attempt_at) index: its cost follows
  // the queue's depth, never the table's (delivered messages are most of it).
  const readQueue = async (): Promise<QueueRow | undefined> => {
    if (queue && Date.now() - queue.at < QUEUE_CACHE_MS) return queue.row;
    queueQuery ??= queryRow(
      pool,
      sql<QueueRow>`SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
                count(*) FILTER (WHERE status = 'delivering')::int AS delivering,
                count(*) FILTER (WHERE next_attempt_at <= now())::int AS due,
                extract(epoch FROM now() - min(created_at))::float8 AS oldest_age,
                extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()))::float8 AS oldest_due_wait
         FROM webhook_messages WHERE status IN ('pending', 'delivering')`,
    )
      .then(
        (row) => row,
        () => undefined,
      )
      .then((row) => {
        queue = { at: Date.now(), row };
        queueQuery = undefined;
        return row;
      });
    return queueQuery;
  };

  new client.Gauge({
    name: 'webhook_queue_messages',
    help: 'Webhook messages not yet delivered or given up, by state: pending (waiting for their attempt or retry), delivering (claimed by a worker), due (their attempt is due now).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const row = await readQueue();
      this.reset();
      if (!row) return;
      this.set({ state: 'pending' }, row.pending);
      this.set({ state: 'delivering' }, row.delivering);
      this.set({ state: 'due' }, row.due);
    },
  });
  new client.Gauge({
    name: 'webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest webhook message not yet delivered or given up (0: none). Retries after a receiver outage make it grow by design.',
    registers: [registry],
    async collect() {
      const row = await readQueue();
      if (row) this.set(row.oldest_age ?? 0);
    },
  });
  new client.Gauge({
    name: 'webhook_oldest_due_wait_seconds',
    help: 'How long the most overdue webhook attempt has been due without being made (0: none): the delivery workers falling behind.',
    registers: [registry],
    async collect() {
      const row = await readQueue();
      if (row) this.set(row.oldest_due_wait ?? 0);
    },
  });
  new client.Gauge({
    name: 'webhook_queue_scrape_ok',
    help: '1 if the webhook queue could be read for this scrape, 0 if not (the webhook_queue_* values are then absent or stale).',
    registers: [registry],
    async collect() {
      this.set((await readQueue()) ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'app_workers_ready',
    help: 'Worker processes of this instance that have passed their readiness check.',
    registers: [registry],
    collect() {
      this.set(options.readyWorkers());
    },
  });

  let nextId = 0;
  const waiting = new Map<number, (metrics: unknown) => void>();
  const askWorker = (worker: Worker) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(undefined);
      }, WORKER_REPLY_MS);
      waiting.set(id, (metrics) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(metrics);
      });
      try {
        worker.send({ type: METRICS_JSON_REQUEST, id });
      } catch {
        waiting.get(id)?.(undefined);
      }
    });

  const metricsText = async (): Promise<string> => {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
    const replies = await Promise.all(workers.map(askWorker));
    const sets = replies.filter((reply): reply is client.MetricObjectWithValues<client.MetricValue<string>>[] =>
      Array.isArray(reply),
    );
    sets.push(await registry.getMetricsAsJSON());
    return client.AggregatorRegistry.aggregate(sets).metrics();
  };

  const onMessage = (worker: Worker, message: unknown) => {
    if (!isMessage(message) || typeof message.id !== 'number') return;
    if (message.type === METRICS_JSON_REPLY) waiting.get(message.id)?.(message.metrics);
    if (message.type === METRICS_REQUEST) {
      const id = message.id;
      metricsText().then(
        (text) => worker.isConnected() && worker.send({ type: METRICS_REPLY, id, text }),
        () => worker.isConnected() && worker.send({ type: METRICS_REPLY, id, text: null }),
      );
    }
  };
  cluster.on('message', onMessage);

  let server: Server | undefined;
  if (options.metricsPort !== undefined) {
    const token = options.metricsToken;
    server = createServer((req, res) => {
      const pathname = (req.url ?? '/').split('?')[0];
      if (pathname !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served on this port.\n');
        return;
      }
      if (token !== undefined && !carriesToken(req.headers.authorization, token)) {
        res
          .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
          .end('A valid metrics token is required.\n');
        return;
      }
      metricsText().then(
        (text) =>
          res
            .writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' })
            .end(req.method === 'HEAD' ? undefined : text),
        () => res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are unavailable right now.\n'),
      );
    });
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(options.metricsPort, options.metricsBindAddress, () => resolve());
    });
    options.log.info({ metricsPort: options.metricsPort, token: token !== undefined }, 'metrics served');
  }

  return {
    metricsText,
    async close() {
      cluster.off('message', onMessage);
      if (server) {
        const closing = server;
        const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
        closing.closeAllConnections();
        await closed;
      }
      await pool.end().catch(() => undefined);
    },
  };
}
