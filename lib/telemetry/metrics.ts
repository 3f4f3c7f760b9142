import 'server-only';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import client from 'prom-client';

// Labels are bounded by construction (a route template, a fixed list of methods, our statuses). On globalThis: Next's
// bundles and the server's own modules may load this file twice.

const KEY = Symbol.for('carrier.metrics');
type Global = typeof globalThis & { [KEY]?: Metrics };

interface Metrics {
  requests: client.Counter<'method' | 'route' | 'status'>;
  duration: client.Histogram<'method' | 'route' | 'status'>;
  deliveries: client.Counter<'outcome'>;
  pools: Map<string, () => PoolCounts | undefined>;
}

export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function metrics(): Metrics {
  const global = globalThis as Global;
  if (global[KEY]) return global[KEY];
  const pools = new Map<string, () => PoolCounts | undefined>();
  client.collectDefaultMetrics();
  const created: Metrics = {
    requests: new client.Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
    }),
    duration: new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
    deliveries: new client.Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: succeeded, retry (failed, will retry), failed (given up), skipped (endpoint disabled), error (outcome not recorded).',
      labelNames: ['outcome'],
    }),
    pools,
  };
  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections of this process: total (open), idle, and waiting (queries queued for a connection).',
    labelNames: ['pool', 'state'],
    collect() {
      this.reset();
      for (const [pool, read] of pools) {
        const counts = read();
        if (!counts) continue;
        this.set({ pool, state: 'total' }, counts.totalCount);
        this.set({ pool, state: 'idle' }, counts.idleCount);
        this.set({ pool, state: 'waiting' }, counts.waitingCount);
      }
    },
  });
  global[KEY] = created;
  return created;
}

export function initMetrics(): void {
  metrics();
}

export function trackPool(name: string, read: () => PoolCounts | undefined): void {
  metrics().pools.set(name, read);
}

export type DeliveryOutcome = 'succeeded' | 'retry' | 'failed' | 'skipped' | 'error';

export function countDelivery(outcome: DeliveryOutcome): void {
  metrics().deliveries.inc({ outcome });
}

export function observeRequest(req: IncomingMessage, res: ServerResponse, route: string): void {
  const { requests, duration } = metrics();
  const started = process.hrtime.bigint();
  const method = METHODS.has(req.method ?? '') ? (req.method ?? 'other') : 'other';
  const done = () => {
    res.off('finish', done);
    res.off('close', done);
    const labels = { method, route, status: String(res.statusCode) };
    requests.inc(labels);
    duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  };
  res.on('finish', done);
  res.on('close', done);
}

export function localMetricsJson(): Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]> {
  metrics();
  return client.register.getMetricsAsJSON();
}

export function localMetricsText(): Promise<string> {
  metrics();
  return client.register.metrics();
}

export const METRICS_CONTENT_TYPE = client.register.contentType;

// Both hashed first, so that timingSafeEqual compares equal lengths.
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const match = /^(?:Bearer|Token)\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
