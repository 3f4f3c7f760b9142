// npm start (production build) / npm run dev: one command runs the whole service, and the one way to
// run it: the tests (every TEST_SERVER), the reliability suite and the benchmarks start this file.
//
// This process is the supervisor. Database: DATABASE_URL if set, else an embedded PostgreSQL under
// .data/ (scripts/database.mjs) started and stopped with the app. Then, once, the migrations and
// the seeded rate cards, and the server:
//   default          APP_WORKERS worker processes (Node's cluster; one per core unless set, one for
//                    `npm run dev`) sharing the port, each running server/server.ts: the API on
//                    Fastify (lib/http/api-app.ts) and a webhook delivery worker, every other path
//                    passed to the portal's process (server/portal.ts: Next alone, on a Unix socket;
//                    `npm run dev` keeps Next in its worker). A worker or portal that dies is
//                    replaced (after a back-off when they keep dying), so a crash costs its own
//                    requests in flight, not the service.
//   START_MODE=next  plain `next start` / `next dev` in a child process, the API through Next's
//                    route handlers (the API suite runs against both; see docs/decisions/production-server.md)
// SIGTERM / SIGINT, to this process or to its whole group: the workers stop accepting and finish
// their requests in flight (APP_STOP_GRACE_MS), then the embedded PostgreSQL stops, then we exit.
// package.json's `exec node …` makes this process the one npm's signals reach.
// `npm start` runs this file compiled (dist/start.js, built by `npm run build`: scripts/build-server.mjs),
// with no TypeScript at run time; `npm run dev` runs it from source under tsx, with
// `--import ./scripts/hooks/server-only.mjs` so that lib/ modules load outside Next.
import { fork as forkProcess, spawn, type ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedRateCards } from '../prisma/seed';
import { processSettings, type ProcessSettings } from '../lib/env';
import { encryptSecretsAtStart, ensureWebhookSecretsKey } from '../lib/webhooks/prepare-secrets-at-start';
import { appDatabase, ensureDatabase, StartError } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';

const dev = process.argv.includes('--dev');
// The settings read before the database is known (lib/env.ts, processSettings): a bad one stops here, with the reason.
let settings: ProcessSettings;
try {
  settings = processSettings();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
const port = String(settings.PORT);
const mode = settings.START_MODE;

/** A worker that dies within this long of its start counts as a crash loop: the next start waits longer. */
const FAST_DEATH_MS = 10_000;
/** The workers after the first start when it is ready, or this long after it was forked, whichever comes first. */
const REST_AFTER_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

let database: Awaited<ReturnType<typeof ensureDatabase>> | undefined;
let stopping: NodeJS.Signals | undefined;
let stopApp: (() => Promise<void>) | undefined;

/** One line, never a stack, for what stops a start (the stack too with LOG_LEVEL=debug). */
function report(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error instanceof StartError ? message : `npm start failed: ${message.split('\n')[0]}`);
  if (settings.LOG_LEVEL === 'debug' && error instanceof Error) console.error(error.stack);
}

async function exit(code: number): Promise<never> {
  await database?.stop().catch((error: Error) => console.error(`stopping the database failed: ${error.message}`));
  if (portalDir) rmSync(portalDir, { recursive: true, force: true });
  process.exit(code);
}

// `on`, not `once`: Ctrl+C reaches npm, the shell and this process, and npm forwards it again; a
// second signal must not fall through to the default action and kill us before the database stops.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = signal;
    // Before the app runs (still starting the database or migrating), the start is abandoned at the next step.
    if (stopApp)
      void stopApp().then(
        () => exit(0),
        () => exit(1),
      );
  });
}

if (!dev && !existsSync(fileURLToPath(new URL('../.next/BUILD_ID', import.meta.url)))) {
  console.error('npm start serves the production build, and there is none: run `npm run build` first (or `npm run dev`)');
  process.exit(1);
}

// Webhook secrets are encrypted at rest: the key first (refuse to start without one in production on
// a DATABASE_URL), then, after the migrations, the data step that encrypts any plain ones.
const refusal = ensureWebhookSecretsKey({
  embedded: !settings.DATABASE_URL,
  production: (settings.NODE_ENV ?? (dev ? 'development' : 'production')) === 'production',
  dataDir: fileURLToPath(new URL('../.data', import.meta.url)),
});
if (refusal) {
  console.error(refusal);
  process.exit(1);
}

// The portal (Next) runs in a process of its own, on a Unix socket in a directory only this user can enter; the API
// workers pass it every request that is not the API's (server/portal.ts, lib/http/portal-proxy.ts). The peer-address
// nonce they stamp those requests with is the instance's (lib/http/peer-address.ts). `npm run dev` keeps Next in its
// one worker, for the hot reload's WebSocket.
const portalDir = mode === 'server' && !dev ? mkdtempSync(path.join(tmpdir(), 'carrier-')) : undefined;
if (portalDir) {
  process.env.CARRIER_PORTAL_SOCKET = path.join(portalDir, 'portal.sock');
  process.env.CARRIER_PEER_NONCE = randomBytes(16).toString('hex');
}

// The first worker is forked now, before the database is ready: loading its code (about a second, most of the
// start) overlaps starting PostgreSQL, the migrations' check and the seed. Once loaded it asks for the database's
// address (server/server.ts, CARRIER_AWAIT_DATABASE) and touches nothing before it has it; a message sent before
// it listens would be lost, hence the asking.
const early = mode === 'server' ? forkWorker({ CARRIER_AWAIT_DATABASE: '1' }) : undefined;
let earlyAsked = false;
let earlyAnswer: string | undefined;
const answerEarly = () => {
  if (early && earlyAsked && earlyAnswer !== undefined && !early.isDead())
    early.send({ type: 'carrier:database', url: earlyAnswer });
};
early?.on('message', (message: unknown) => {
  if ((message as { type?: unknown } | null)?.type !== 'carrier:await-database') return;
  earlyAsked = true;
  answerEarly();
});

try {
  database = await ensureDatabase(appDatabase());
  if (!stopping) await migrateDeploy(database.url);
  if (!stopping) await seedRateCards(database.url);
  if (!stopping) await encryptSecretsAtStart(database.url);
} catch (error) {
  report(error);
  await exit(1);
}
if (stopping) await exit(0);
process.env.DATABASE_URL = database!.url;

if (mode === 'next') runNext();
else await runCluster();

/** Built, this file is dist/start.js and its workers run dist/server.js; from source (`npm run dev`), server/server.ts. */
function entry(name: string): string {
  return fileURLToPath(new URL(`./${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
}

function forkWorker(env: Record<string, string> = {}): Worker {
  if (!cluster.settings.exec) cluster.setupPrimary({ exec: entry('server'), args: dev ? ['--dev'] : [] });
  return cluster.fork({ PORT: port, ...env });
}

function runNext(): void {
  const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
  // `npm start`'s V8 flags (the heap bound among them), not its module hooks: `next start` runs under
  // the same memory budget as the production server's workers.
  const v8Flags = process.execArgv.filter((arg) =>
    /^--(max-old-space-size|max-semi-space-size|no-allocation-site-pretenuring)\b/.test(arg),
  );
  // The production server's keep-alive (65 s, server/server.ts) here too: with Node's default 5 s a client that
  // reuses a connection idle for about that long races the server's close and gets "other side closed".
  const command = dev ? ['dev'] : ['start', '--keepAliveTimeout', '65000'];
  // Built, the answer to request targets that are no path (dist/next-request-target.js); `npm run dev` goes without.
  const targets = fileURLToPath(new URL('./next-request-target.js', import.meta.url));
  const hooks = !import.meta.url.endsWith('.ts') && existsSync(targets) ? ['--import', targets] : [];
  const app: ChildProcess = spawn(process.execPath, [...v8Flags, ...hooks, nextBin, ...command, '--port', port], {
    env: process.env,
    stdio: 'inherit',
  });
  const exited = new Promise<void>((resolve) => app.once('exit', () => resolve()));
  stopApp = async () => {
    if (app.exitCode === null && app.signalCode === null) app.kill(stopping ?? 'SIGTERM');
    await exited;
  };
  app.once('exit', (code, signal) => {
    if (!stopping) void exit(code ?? (signal ? 1 : 0));
  });
  if (stopping)
    void stopApp().then(
      () => exit(0),
      () => exit(1),
    );
}

async function runCluster(): Promise<void> {
  const { env } = await import('@/lib/env');
  const log = (await import('@/lib/log')).log.child({ component: 'supervisor' });
  let config: ReturnType<typeof env>;
  try {
    config = env();
  } catch {
    return void (await exit(2)); // env() has said what is wrong
  }
  const count = dev ? 1 : (config.APP_WORKERS ?? availableParallelism());

  const startedAt = new Map<Worker, number>();
  const restarts = new Set<NodeJS.Timeout>();
  let everListening = false;
  let fastDeaths = 0;

  const fork = () => {
    const worker = forkWorker();
    startedAt.set(worker, Date.now());
  };
  // The other workers start once the first is ready (or after REST_AFTER_MS, if it is not ready by then): started
  // together they share the cores while loading, and the first is ready later; the service is up with one.
  let rest = count - 1;
  const forkRest = () => {
    clearTimeout(restTimer);
    for (; rest > 0 && !stopping; rest -= 1) fork();
    if (!portalForked) forkPortal();
  };

  // The portal's process starts with the rest: its Next takes about a second to prepare, and a portal request
  // meanwhile waits for it in the API worker. One that dies is replaced, after a back-off when it keeps dying.
  let portal: ChildProcess | undefined;
  let portalForked = false;
  let portalDeaths = 0;
  let portalRestart: NodeJS.Timeout | undefined;
  let gaveUp = false;
  const forkPortal = () => {
    portalForked = true;
    if (!portalDir || stopping) return;
    const started = Date.now();
    // No delivery worker of its own: the API workers run one each.
    const child = forkProcess(entry('portal'), [], { env: { ...process.env, WEBHOOK_WORKER: 'off' } });
    portal = child;
    child.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type === 'carrier:portal-listening')
        log.info({ portalPid: child.pid }, 'portal ready');
    });
    child.once('exit', (code, signal) => {
      portal = undefined;
      if (stopping || gaveUp) return;
      const lived = Date.now() - started;
      portalDeaths = lived < FAST_DEATH_MS ? portalDeaths + 1 : 0;
      const delayMs = portalDeaths === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 250 * 2 ** portalDeaths);
      log.error({ portalPid: child.pid, code, signal, livedMs: lived, restartInMs: delayMs }, 'portal died; starting another');
      portalRestart = setTimeout(forkPortal, delayMs);
    });
  };
  const restTimer = setTimeout(forkRest, REST_AFTER_MS);

  cluster.on('listening', (worker) => {
    everListening = true;
    log.info({ workerPid: worker.process.pid }, 'worker listening');
  });

  // A worker counts as up once its readiness check passes (database, migrations, its webhook worker:
  // lib/probes/server-probes.ts), not when it listens; GET /metrics is summed over all workers here.
  const ready = new Set<Worker>();
  let everReady = false;
  cluster.on('message', (worker, message: unknown) => {
    const isReady = typeof message === 'object' && message !== null && 'type' in message && message.type === 'carrier:ready';
    if (!isReady || ready.has(worker)) return;
    ready.add(worker);
    log.info({ workerPid: worker.process.pid, ready: ready.size }, 'worker ready');
    if (ready.size === 1 && !everReady) log.info({ port: Number(port), workers: count, supervisorPid: process.pid }, 'app ready');
    everReady = true;
    forkRest();
  });
  const { startSupervisorOps } = await import('@/lib/probes/supervisor-ops');
  let ops: Awaited<ReturnType<typeof startSupervisorOps>>;
  try {
    ops = await startSupervisorOps({
      cluster,
      databaseUrl: config.DATABASE_URL,
      readyWorkers: () => ready.size,
      metricsPort: config.METRICS_PORT,
      metricsBindAddress: config.METRICS_BIND_ADDRESS,
      metricsToken: config.METRICS_TOKEN,
      log,
    });
  } catch (error) {
    report(new Error(`cannot serve metrics on METRICS_PORT ${config.METRICS_PORT}: ${(error as Error).message}`));
    return void (await exit(1));
  }

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    const wasReady = ready.delete(worker);
    if (stopping) return;
    if (!everListening) {
      // No worker has ever started (no build, a bad setting, the port taken): no use trying again.
      console.error(`npm start failed: the server did not start (worker exited with ${signal ?? code}); see its output above`);
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGKILL');
      gaveUp = true;
      portal?.kill('SIGKILL');
      void exit(1);
      return;
    }
    // A worker that never got ready counts as a crash too, however long it took to die.
    fastDeaths = lived < FAST_DEATH_MS || !wasReady ? fastDeaths + 1 : 0;
    const delayMs = fastDeaths === 0 ? 0 : Math.min(MAX_BACKOFF_MS, 250 * 2 ** fastDeaths);
    log.error(
      { workerPid: worker.process.pid, code, signal, livedMs: lived, restartInMs: delayMs },
      'worker died; starting another',
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!stopping) fork();
    }, delayMs);
    restarts.add(timer);
  });

  stopApp = async () => {
    clearTimeout(restTimer);
    clearTimeout(portalRestart);
    for (const timer of restarts) clearTimeout(timer);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    log.info({ signal: stopping, workers: workers.length }, 'stopping: workers finish their requests in flight');
    const exited = workers.map(
      (worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    // A signal to the whole group reached them already; one to this process alone reaches them now.
    for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGTERM');
    // Past the grace (plus the webhook attempts' timeout and a margin), whatever is left is killed.
    const hard = setTimeout(
      () => {
        for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
        portal?.kill('SIGKILL');
      },
      config.APP_STOP_GRACE_MS + config.WEBHOOK_TIMEOUT_MS + 5_000,
    );
    await Promise.all(exited);
    clearTimeout(hard);
    // The portal last: the workers' requests in flight may have been waiting on it. Its own deadline from then: its
    // grace for what is still in it, and the few seconds it may wait for mail it is sending.
    const stoppingPortal = portal;
    if (stoppingPortal && stoppingPortal.exitCode === null && stoppingPortal.signalCode === null) {
      const portalExited = new Promise<void>((resolve) => stoppingPortal.once('exit', () => resolve()));
      if (stoppingPortal.connected) stoppingPortal.send({ type: 'carrier:stop' });
      else stoppingPortal.kill('SIGTERM');
      const portalHard = setTimeout(() => stoppingPortal.kill('SIGKILL'), config.APP_STOP_GRACE_MS + 5_000);
      await portalExited;
      clearTimeout(portalHard);
    }
    await ops.close();
    log.info('workers stopped');
  };

  // The worker forked before the database step gets its address now; if it died meanwhile, a new one starts.
  if (early && !early.isDead()) {
    startedAt.set(early, Date.now());
    earlyAnswer = process.env.DATABASE_URL;
    answerEarly();
  } else fork();
  // A signal that came while the workers were being forked.
  if (stopping)
    void stopApp().then(
      () => exit(0),
      () => exit(1),
    );
}
