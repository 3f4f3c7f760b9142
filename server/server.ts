// The production server: one node:http server that hands the API paths to the API's Fastify app
// (lib/http/api-app.ts: Fastify's router, body reader and CORS around our auth, limits and envelope)
// and every other path (portal pages, portal-api, assets, the OpenAPI document) to Next: under
// `npm start`, to the portal's process (server/portal.ts) over its Unix socket, so that Next never
// loads where the API is served; run alone or by `npm run dev`, to Next's request handler here. The
// split is by path prefix, before either sees the request: Next's per-request pipeline costs far
// more than our operations do, and Fastify in front of Next would cost every portal request its
// routing and hooks (docs/decisions/production-server.md).
// The route handlers under app/api stay: `START_MODE=next npm start` serves everything through
// Next, and the API suite runs against both ways in. It also runs this process's webhook delivery
// worker (WEBHOOK_WORKER=off: none), which it stops with the server.
//
// This file is what each worker process of `npm start` runs: server/start.ts (the supervisor)
// prepares the database and forks it with Node's cluster module. `npm start` is the one way to run
// it; the tests and benchmarks run `npm start`'s command too (e2e/api/support/spawn.ts).
// SIGTERM / SIGINT, a stop message from the supervisor, or the supervisor's disappearance: stop
// accepting, finish requests in flight (APP_STOP_GRACE_MS at most) and attempts in flight, exit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closeProcessResources, drainServer } from './shutdown';
import type { RequestHandler } from 'next/dist/server/next';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Next prepares once this worker is ready, or this long after it listens if it is not ready by then. */
const NEXT_AFTER_MS = 1_000;

export interface StartServerOptions {
  dev?: boolean;
  port?: number;
  hostname?: string;
}

export interface RunningServer {
  server: Server;
  port: number;
  /**
   * Stops accepting, lets requests in flight finish (up to `graceMs`, then their connections are
   * closed) and the webhook worker's attempts in flight, then closes Next and the database pools.
   */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dev = options.dev ?? false;
  // Next reads NODE_ENV when it is loaded; set it first, as `next start` / `next dev` would.
  (process.env as Record<string, string>).NODE_ENV ??= dev ? 'development' : 'production';
  const { processSettings } = await import('@/lib/env');
  const settings = processSettings();
  // Unset: every interface, as `next start` does. (Not $HOSTNAME: shells and containers set it to the machine's name.)
  const hostname = options.hostname ?? settings.BIND_ADDRESS;
  const port = options.port ?? settings.PORT;

  // Imported after NODE_ENV is settled: lib/log and lib/env read the environment once.
  const [
    { answerClientError, answerOddTarget, discardRest, nodeClient, sendServerFailure },
    { createApiApp },
    { isApiPath },
    { splitTarget },
    { log },
    { env },
    { stampPeerAddress, stampPeerAddressesInServer },
  ] = await Promise.all([
    import('@/lib/http/node-adapter'),
    import('@/lib/http/api-app'),
    import('@/lib/http/routes'),
    import('@/lib/http/request-target'),
    import('@/lib/log'),
    import('@/lib/env'),
    import('@/lib/http/peer-address'),
  ]);
  const config = env(); // a bad configuration stops here, with the reason

  // The request log is written by a thread of its own where the compiled server runs (dist/request-log-thread.js,
  // next to this file once built; lib/request-log/thread.ts says why). Under tsx the serving thread writes it.
  const logThread = path.join(path.dirname(fileURLToPath(import.meta.url)), 'request-log-thread.js');
  if (settings.REQUEST_LOG === 'on' && existsSync(logThread)) {
    const { startRequestLogThread } = await import('@/lib/request-log/thread');
    startRequestLogThread(logThread);
  }

  // /healthz, /readyz, /metrics, and every request counted by route template (lib/probes/server-probes.ts).
  const [{ serverProbes }, { initMetrics, trackPool }, { pgPool }, { queuePoolCounts }] = await Promise.all([
    import('@/lib/probes/server-probes'),
    import('@/lib/telemetry/metrics'),
    import('@/lib/db'),
    import('@/lib/webhooks/queue-pool'),
  ]);
  initMetrics();
  trackPool('app', () => pgPool());
  trackPool('webhook', queuePoolCounts);
  // Started before the server listens: its first heartbeat, which readiness waits for, overlaps making the API app.
  // Stopped by this server's shutdown, after its requests in flight (instrumentation.ts, in Next, finds it running).
  const { runWebhookWorker } = await import('@/lib/webhooks/run-worker');
  const worker = runWebhookWorker({ stopOnSignals: false });
  const probes = serverProbes({
    config,
    nextDir: path.join(ROOT, '.next'),
    migrationsDir: path.join(ROOT, 'prisma', 'migrations'),
    worker: () =>
      config.WEBHOOK_WORKER === 'off' ? 'off' : (worker?.status() ?? { running: false, heartbeatAgeMs: null, staleAfterMs: 0 }),
  });

  // Next is loaded and prepared (its build read, instrumentation.ts run) once the API app is made: in production the
  // server listens meanwhile, and the API, the probes and the webhook worker do not wait for the portal's half second.
  const { captureNativeGlobals } = await import('@/lib/http/native-globals');
  let nextHandler: RequestHandler | undefined;
  const prepareNext = async () => {
    const restoreNativeGlobals = captureNativeGlobals();
    const { default: next } = await import('next');
    const app = next({ dev, dir: ROOT, hostname: hostname ?? 'localhost', port });
    await app.prepare();
    // Production only: the development server stays as Next made it.
    if (!dev) restoreNativeGlobals();
    nextHandler = app.getRequestHandler();
    return { app, handler: nextHandler };
  };
  let nextPrepared: Promise<Awaited<ReturnType<typeof prepareNext>>> | undefined;
  // Each request handed to Next carries its peer's address, stamped here: instrumentation.ts then leaves Node's servers
  // unpatched, so the API's requests do not pay for a header only Next's route handlers read.
  stampPeerAddressesInServer();
  // Under `npm start` the portal has a process of its own (server/portal.ts), and its requests are passed to it;
  // run alone (or `npm run dev`, whose hot reload needs Next here), this process loads Next itself.
  const portalSocket = dev ? undefined : process.env.CARRIER_PORTAL_SOCKET;
  const portal = portalSocket ? (await import('@/lib/http/portal-proxy')).portalProxy({ socketPath: portalSocket }) : undefined;
  // A request for Next's paths that comes before it is prepared waits for it.
  const toNext = (req: IncomingMessage, res: ServerResponse) => {
    stampPeerAddress(req);
    if (portal) return portal.handle(req, res);
    if (nextHandler) return void nextHandler(req, res).catch((error: unknown) => sendServerFailure(res, error));
    void nextPrepared!.then(({ handler }) => handler(req, res)).catch((error: unknown) => sendServerFailure(res, error));
  };

  // One server: the probes first, then the API's paths to Fastify's handler, the rest to Next.
  const { app: api, server: created } = await createApiApp({
    client: nodeClient,
    abandonBody: discardRest,
    server: {
      create: (apiHandler) =>
        // Node checks these deadlines every connectionsCheckingInterval (30 s by default), which let a client trickling a
        // header line every 2 s hold a connection for 38 s against the 10 s: checked each second, they hold to the second.
        createServer({ headersTimeout: 10_000, requestTimeout: 60_000, connectionsCheckingInterval: 1_000 }, (req, res) => {
          if (answerOddTarget(req, res) || probes.handle(req, res)) return;
          const { pathname } = splitTarget(req.url ?? '/');
          // The OpenAPI document is public and served by its Next route (app/api/1.1/openapi.json), not the token-checked API.
          if (isApiPath(pathname) && !pathname.endsWith('/openapi.json')) return apiHandler(req, res);
          toNext(req, res);
        }),
    },
  });
  if (!created) throw new Error('the API app made no server');
  const server: Server = created;

  if (dev) {
    // Dev mode's hot reload talks over a WebSocket upgrade: Next is prepared before that server listens.
    const prepared = await prepareNext();
    nextPrepared = Promise.resolve(prepared);
    const upgrade = prepared.app.getUpgradeHandler();
    server.on(
      'upgrade',
      (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head).catch(() => socket.destroy()),
    );
  }
  // A request Node's parser refuses (headers over 16 KB, say) gets the envelope too, not a bare status line.
  server.removeAllListeners('clientError');
  server.on('clientError', answerClientError);
  // A client has 10 s to send its headers and 60 s for the whole request (a 5 MB body on a slow
  // link); idle keep-alive connections stay open longer than a typical load balancer's 60 s so
  // that the balancer, not us, closes them (no race on a reused connection).
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  log.info({ port: actualPort, dev }, 'server listening');

  // The supervisor counts this worker as up once it is ready: database, migrations, webhook worker (their checks wait
  // on round trips that Next's loading would hold up). Then, in production, Next loads and prepares (half a second; a
  // portal request meanwhile waits), and the postal-code dataset is read (0.1 s) before a request needs it.
  const ready = probes.whenReady();
  if (!dev && !portal) {
    const readyOrLate = new Promise<void>((resolve) => setTimeout(resolve, NEXT_AFTER_MS).unref());
    nextPrepared = Promise.race([ready, readyOrLate]).then(() => {
      if (closing) throw new Error('stopped before Next was prepared');
      return prepareNext();
    });
    // A build Next cannot serve stops this worker, as it would have before listening: the supervisor starts another.
    nextPrepared.catch((error: unknown) => {
      if (closing) return; // stopped during the start: nothing is wrong
      log.fatal({ err: error }, 'Next could not be prepared: the portal cannot be served');
      void close().finally(() => process.exit(1));
    });
  }
  const { loadPostalCodes } = await import('@/lib/places/postal-codes');
  void ready.then(() => setImmediate(loadPostalCodes));

  let closing: Promise<void> | undefined;
  const close = (graceMs = config.APP_STOP_GRACE_MS): Promise<void> => {
    closing ??= (async () => {
      // Attempts in flight end within WEBHOOK_TIMEOUT_MS; nothing new is claimed.
      await Promise.all([
        drainServer(server, graceMs),
        worker?.stop().catch((error: unknown) => log.error({ err: error }, 'webhook worker failed to stop')),
      ]);
      await api.close().catch(() => undefined);
      portal?.close();
      // Not waited for while still preparing (a stop during the start): the process exits once this is done.
      if (nextHandler) await nextPrepared?.then(({ app }) => app.close()).catch(() => undefined);
      await probes.close();
      await closeProcessResources();
    })();
    return closing;
  };
  return { server, port: actualPort, close };
}

// Run directly: a worker of `npm start` (server/start.ts forks this file), or alone once
// DATABASE_URL points at a migrated database. Serves until told to stop.
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const { default: cluster } = await import('node:cluster');
  // Forked before the database was ready (server/start.ts): this process has loaded its code meanwhile; the
  // supervisor sends the database's address once PostgreSQL runs and the migrations are applied.
  if (cluster.isWorker && process.env.CARRIER_AWAIT_DATABASE === '1') {
    delete process.env.CARRIER_AWAIT_DATABASE;
    process.env.DATABASE_URL = await new Promise<string>((resolve) => {
      // The supervisor gave up (the database did not start) or was stopped: nothing was started here.
      const onDisconnect = () => process.exit(0);
      const onMessage = (message: unknown) => {
        const { type, url } = (message ?? {}) as { type?: unknown; url?: unknown };
        if (type !== 'carrier:database' || typeof url !== 'string') return;
        process.off('message', onMessage);
        process.off('disconnect', onDisconnect);
        resolve(url);
      };
      process.on('message', onMessage);
      process.once('disconnect', onDisconnect);
      process.send?.({ type: 'carrier:await-database' });
    });
  }
  const running = await startServer({ dev: process.argv.includes('--dev') }).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // `on`, not `once`: a signal sent to the whole group reaches this process and, forwarded, again
  // from the supervisor; a second one must not fall through to the default action (exit at once).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
  if (cluster.isWorker) {
    process.on('message', (message: unknown) => {
      if ((message as { type?: string } | null)?.type === 'carrier:stop') stop();
    });
    // The supervisor is gone (killed with SIGKILL): stop too rather than serve on as an orphan.
    process.on('disconnect', stop);
  }
}
