import 'server-only';
import { randomUUID } from 'node:crypto';
import { probeMethodError } from './probe-method';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@/lib/errors/app-error';
import { errorBody, errorHeaders, httpStatus } from '@/lib/http/errors';
import { splitTarget } from '@/lib/http/request-target';
import { carriesToken, localMetricsJson, localMetricsText, METRICS_CONTENT_TYPE, observeRequest } from '@/lib/telemetry/metrics';
import { readinessAnswer, readinessProbe, type WorkerStatus } from './readiness';
import { routeLabeler } from './route-label';
import { METRICS_JSON_REPLY, METRICS_JSON_REQUEST, METRICS_REPLY, METRICS_REQUEST } from './supervisor-ops';

// Answered before anything else, with no token, no rate limit and no database work beyond the readiness query. /healthz
// is liveness; /metrics is here when METRICS_TOKEN is set and METRICS_PORT is not (then the supervisor serves it).

type Config = { METRICS_PORT?: number; METRICS_TOKEN?: string; DATABASE_URL: string };

const METRICS_WAIT_MS = 5_000;

export interface ServerProbes {
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  whenReady(): Promise<void>;
  close(): Promise<void>;
}

function isMessage(value: unknown): value is { type?: unknown; id?: unknown; text?: unknown } {
  return typeof value === 'object' && value !== null;
}

export function serverProbes(options: {
  config: Config;
  nextDir?: string;
  migrationsDir?: string;
  worker: () => WorkerStatus | 'off';
}): ServerProbes {
  const { config } = options;
  const label = routeLabeler({ nextDir: options.nextDir });
  const readiness = readinessProbe(config.DATABASE_URL, options.migrationsDir);
  // Its connection opens now, while the server is being made: the first check once it listens is then one query.
  void readiness.check(() => 'off').catch(() => undefined);
  const metricsHere = config.METRICS_PORT === undefined ? config.METRICS_TOKEN : undefined;
  const inCluster = typeof process.send === 'function';
  let closed = false;

  // The supervisor's questions (lib/probes/supervisor-ops.ts) and its answers to ours.
  let nextId = 0;
  const waiting = new Map<number, (text: string | null) => void>();
  const onMessage = (message: unknown) => {
    if (!isMessage(message) || typeof message.id !== 'number') return;
    const id = message.id;
    if (message.type === METRICS_JSON_REQUEST)
      void localMetricsJson().then(
        (metrics) => process.send?.({ type: METRICS_JSON_REPLY, id, metrics }),
        () => process.send?.({ type: METRICS_JSON_REPLY, id, metrics: null }),
      );
    if (message.type === METRICS_REPLY) waiting.get(id)?.(typeof message.text === 'string' ? message.text : null);
  };
  if (inCluster) process.on('message', onMessage);

  const wholeInstance = (): Promise<string | null> => {
    if (!inCluster) return localMetricsText();
    return new Promise((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => settle(null), METRICS_WAIT_MS);
      function settle(text: string | null) {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(text);
      }
      waiting.set(id, settle);
      process.send?.({ type: METRICS_REQUEST, id });
    });
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const requestId = `req_${randomUUID().replaceAll('-', '')}`;
    res.writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-request-id': requestId,
      ...headers,
    });
    res.end(JSON.stringify(typeof body === 'function' ? (body as (id: string) => unknown)(requestId) : body));
  };
  const sendError = (res: ServerResponse, error: AppError, extra: Record<string, unknown> = {}) =>
    send(res, httpStatus(error), (requestId: string) => ({ ...errorBody(error, requestId), ...extra }), errorHeaders(error));

  return {
    handle(req, res) {
      const { pathname } = splitTarget(req.url ?? '/');
      observeRequest(req, res, label(pathname));
      if (pathname !== '/healthz' && pathname !== '/readyz' && pathname !== '/metrics') return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendError(res, probeMethodError(req.method ?? ''));
        return true;
      }
      if (pathname === '/healthz') {
        send(res, 200, { status: 'ok' });
        return true;
      }
      if (pathname === '/readyz') {
        readiness.check(options.worker).then(
          (result) => {
            const answer = readinessAnswer(result, `req_${randomUUID().replaceAll('-', '')}`);
            res.writeHead(answer.status, answer.headers);
            res.end(JSON.stringify(answer.body));
          },
          () =>
            sendError(
              res,
              new AppError('service_unavailable', 'Not ready: the readiness check failed.', { retryAfterSeconds: 1 }),
            ),
        );
        return true;
      }
      if (metricsHere === undefined) {
        sendError(
          res,
          new AppError('not_found', 'No metrics here: they are served on METRICS_PORT, or at /metrics with METRICS_TOKEN set.'),
        );
        return true;
      }
      if (!carriesToken(req.headers.authorization, metricsHere)) {
        sendError(
          res,
          new AppError('unauthorized', 'GET /metrics needs the metrics token: Authorization: Bearer <METRICS_TOKEN>.', {
            challenge: 'Bearer',
          }),
        );
        return true;
      }
      wholeInstance().then(
        (text) => {
          if (text === null)
            return sendError(
              res,
              new AppError('service_unavailable', 'Metrics are unavailable right now.', { retryAfterSeconds: 1 }),
            );
          res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        () => sendError(res, new AppError('service_unavailable', 'Metrics are unavailable right now.', { retryAfterSeconds: 1 })),
      );
      return true;
    },
    async whenReady() {
      const started = Date.now();
      while (!closed) {
        const result = await readiness.check(options.worker).catch(() => undefined);
        if (result?.ready) {
          if (inCluster) process.send?.({ type: 'carrier:ready' });
          return;
        }
        // Cheap (the database's answer is reused for a while; the worker's state is this process's): during a
        // normal start, ready is reported within 50 ms of the worker's first heartbeat; past that, twice a second.
        await new Promise((resolve) => setTimeout(resolve, Date.now() - started < 10_000 ? 50 : 500));
      }
    },
    async close() {
      closed = true;
      if (inCluster) process.off('message', onMessage);
      await readiness.close();
    },
  };
}
