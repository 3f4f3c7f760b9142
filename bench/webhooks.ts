// npm run bench:webhooks [-- --packages 2000 --rate 500 --connections 50 --workers 0 --api-worker on --concurrency 64]
//
// Acceptance → delivery of package.sorting webhooks. Starts what it needs: a fresh database (on
// DATABASE_URL's server, or the embedded PostgreSQL under .data/postgres-bench), migrations, seed,
// the app as `npm start` runs it (one worker, whose in-process webhook worker delivers; --workers N adds
// `server/worker.ts` processes), and a receiver on 127.0.0.1 that verifies every signature with
// `standardwebhooks`. autocannon (bench/support/package-load.ts, a process of its own) sends --packages
// packages at --rate a second through the API, and the receiver times each
// from its 200 (accepted) to its arrival at the receiver. Appends the result to bench/RESULTS.md and
// prints it as the last line of stdout, in JSON (bench/run.ts reads that line).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { seedRateCards } from '../prisma/seed';
import { createDatabase, dropDatabase, ensureDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { spawnProcess, startApp, workerCommand, type Spawned } from '../e2e/api/support/spawn';
import { formatResults } from './check';
import { freePort, startFlags } from './support/processes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);

const { values: args } = parseArgs({
  options: {
    packages: { type: 'string', default: '2000' },
    rate: { type: 'string', default: '500' },
    workers: { type: 'string', default: '0' },
    'api-worker': { type: 'string', default: 'on' },
    concurrency: { type: 'string', default: '64' },
    connections: { type: 'string', default: '50' },
    'no-write': { type: 'boolean', default: false },
  },
});
const PACKAGES = Number(args.packages);
const RATE = Number(args.rate);
const EXTRA_WORKERS = Number(args.workers);
const CONNECTIONS = Number(args.connections);
const log = (message: string) => console.error(`[bench:webhooks ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Milliseconds since the epoch, to the microsecond: the load generator's process stamps acceptance on the same clock. */
const wallClock = () => performance.timeOrigin + performance.now();

interface LoadReport {
  accepted: [trackingNumber: string, at: number][];
  refused: number;
  refusedSamples: { status: number; body: string }[];
  errors: number;
  /** When autocannon started (wall clock, ms). */
  startedAt: number;
}

// BENCH_NODE_FLAGS: extra Node flags for the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const EXTRA_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
// The app and the workers run compiled (dist/): rebuilt here if any of its sources changed since.
{
  const { buildServer, serverBuildStale } = await import('../scripts/build-server.mjs');
  if (serverBuildStale()) await buildServer();
}

/** A delivery worker of its own (`npm run worker`'s command: dist/worker.js), with npm start's V8 flags. */
function startWorkerProcess(env: NodeJS.ProcessEnv): Spawned {
  return spawnProcess({
    name: 'webhook worker',
    args: [...startFlags(), ...EXTRA_NODE_FLAGS, ...workerCommand()],
    env,
    output: 'stderr',
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  let nproc = String(os.availableParallelism?.() ?? os.cpus().length);
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // no coreutils: Node's count stands
  }
  return `nproc ${nproc}; ${cpu}; ${Math.round(os.totalmem() / 2 ** 30)} GB; Node ${process.version}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`;
}

// --- Database, account, token ---------------------------------------------------------------------

const externalDatabase = Boolean(process.env.DATABASE_URL);
const dbServer = await ensureDatabase({
  dataDir: '.data/postgres-bench',
  port: Number(process.env.EMBEDDED_PG_BENCH_PORT ?? 5435),
});
const dbName = `carrier_bench_wh_${process.pid}_${Date.now()}`;
const databaseUrl: string = await createDatabase(dbServer.url, dbName);
const children: Spawned[] = [];
const receiverServer = createHttpServer();
let exitCode = 0;
try {
  await migrateDeploy(databaseUrl);
  await seedRateCards(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  process.env.LOG_LEVEL = 'warn';
  const { createApiToken, findOrCreateAccount } = await import('@/lib/accounts/create-api-token');
  const account = await findOrCreateAccount({ name: `Webhook bench ${new Date().toISOString()}` });
  const { token } = await createApiToken({ accountId: account.id, environment: 'test', name: 'bench' });
  const { db } = await import('@/lib/db');
  await db.$disconnect();

  // --- Receiver ------------------------------------------------------------------------------------

  const deliveredAt = new Map<string, number>();
  let duplicates = 0;
  let badSignatures = 0;
  const signing: { verifier?: Webhook } = {};
  let onDelivery: (() => void) | undefined;
  receiverServer.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = wallClock();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        signing.verifier!.verify(body, req.headers as Record<string, string>);
      } catch {
        badSignatures += 1;
      }
      const trackingNumber = (JSON.parse(body) as { tracking_numbers: string[] }).tracking_numbers[0];
      if (deliveredAt.has(trackingNumber)) duplicates += 1;
      else deliveredAt.set(trackingNumber, at);
      res.writeHead(204).end();
      onDelivery?.();
    });
  });
  await new Promise<void>((resolve) => receiverServer.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiverServer.address() as AddressInfo).port;

  // --- API server (delivering in process) and optional extra workers -------------------------------

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    // Production needs the key webhook secrets are encrypted under; the database is the run's own.
    WEBHOOK_SECRETS_KEY: process.env.WEBHOOK_SECRETS_KEY || randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT_PER_SECOND: '1000000000',
    API_RATE_LIMIT_BURST: '1000000000',
    WEBHOOK_WORKER: 'on',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_CONCURRENCY: args.concurrency,
  };
  const port = await freePort();
  const api = await startApp({
    name: 'app',
    port,
    nodeArgs: EXTRA_NODE_FLAGS,
    env: { ...env, APP_WORKERS: '1', WEBHOOK_WORKER: args['api-worker'] === 'off' ? 'off' : 'on' },
    readyPath: '/version-test/api/1.1/webhooks',
    output: 'stderr',
  });
  children.push(api);
  for (let i = 0; i < EXTRA_WORKERS; i += 1) children.push(startWorkerProcess(env));
  const base = `http://127.0.0.1:${port}/version-test/api/1.1`;
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/webhooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, events: ['package.sorting'] }),
  });
  const endpoint = (await created.json()) as { id: string; secret: string };
  if (created.status !== 201) throw new Error(`registering the webhook failed: ${JSON.stringify(endpoint)}`);
  signing.verifier = new Webhook(endpoint.secret);

  // --- Load ----------------------------------------------------------------------------------------

  // autocannon, in a process of its own (bench/support/package-load.ts), sends the packages.
  async function sendPackages(count: number, rate: number, prefix: string): Promise<LoadReport> {
    const load = spawn(process.execPath, ['--import', 'tsx', 'bench/support/package-load.ts'], {
      env: {
        ...process.env,
        LOAD_URL: `http://127.0.0.1:${port}`,
        LOAD_PATH: '/version-test/api/1.1/wf/package',
        LOAD_TOKEN: token,
        LOAD_PACKAGES: String(count),
        LOAD_RATE: String(rate),
        LOAD_CONNECTIONS: String(Math.min(CONNECTIONS, count)),
        LOAD_PREFIX: prefix,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    load.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => load.once('exit', resolve));
    const line = stdout.trim().split('\n').at(-1) ?? '';
    if (code !== 0 || !line.startsWith('{')) throw new Error(`the load generator exited with ${code}: ${stdout.slice(-2000)}`);
    return JSON.parse(line) as LoadReport;
  }
  async function waitDelivered(count: number, timeoutMs: number): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (deliveredAt.size < count && Date.now() < end) {
      await new Promise<void>((resolve) => {
        onDelivery = resolve;
        setTimeout(resolve, 200);
      });
    }
    return deliveredAt.size >= count;
  }

  const runId = Date.now().toString(36).toUpperCase();
  // Warm-up at the measured rate for two seconds: the server's first second at full rate (JIT) is slower.
  const warmCount = Math.min(PACKAGES, 2 * RATE);
  log(`warming up (${warmCount} packages at ${RATE}/s)`);
  const warm = await sendPackages(warmCount, RATE, `WARM${runId}X`);
  await waitDelivered(warm.accepted.length, 30_000);
  deliveredAt.clear();

  log(`sending ${PACKAGES} packages at ${RATE}/s over ${CONNECTIONS} connections`);
  const sent = await sendPackages(PACKAGES, RATE, `BENCH${runId}X`);
  const started = sent.startedAt;
  const acceptedAt = new Map(sent.accepted);
  // The rate at which packages were accepted: their number over the schedule's length (PACKAGES /
  // RATE seconds) or, if the server fell behind, over the time to the last acceptance.
  const lastAccepted = Math.max(...acceptedAt.values());
  const acceptedFor = Math.max(PACKAGES / RATE, (lastAccepted - started) / 1000);
  const acceptedBySecond: number[] = [];
  for (const at of acceptedAt.values()) {
    const second = Math.floor((at - started) / 1000);
    acceptedBySecond[second] = (acceptedBySecond[second] ?? 0) + 1;
  }
  const refused = PACKAGES - acceptedAt.size;
  if (sent.refusedSamples.length > 0) log(`refused: ${JSON.stringify(sent.refusedSamples.slice(0, 3))}`);
  const complete = await waitDelivered(acceptedAt.size, 60_000);

  // --- Results -------------------------------------------------------------------------------------

  const latencies: number[] = [];
  let missing = 0;
  for (const [trackingNumber, accepted] of acceptedAt) {
    const delivered = deliveredAt.get(trackingNumber);
    if (delivered === undefined) missing += 1;
    else latencies.push(delivered - accepted);
  }
  latencies.sort((a, b) => a - b);
  const deliveredTimes = [...deliveredAt.values()].sort((a, b) => a - b);
  const deliverySpan = (deliveredTimes.at(-1)! - started) / 1000;
  const p95 = percentile(latencies, 95);
  const acceptedPerSecond = Math.round(acceptedAt.size / acceptedFor);
  const report = {
    // The goal: p95 under 250 ms while 500 packages a second (at least 95 % of that) are accepted, none lost, none
    // twice, every signature valid.
    met: p95 < 250 && RATE >= 500 && acceptedPerSecond >= 0.95 * RATE && missing === 0 && duplicates === 0 && badSignatures === 0,
    packages: PACKAGES,
    target_rate_per_s: RATE,
    accepted: acceptedAt.size,
    refused,
    load_errors: sent.errors,
    accepted_per_s: acceptedPerSecond,
    accepted_by_second: Array.from(acceptedBySecond, (n) => n ?? 0),
    delivered: latencies.length,
    missing,
    duplicates,
    bad_signatures: badSignatures,
    p50_ms: Math.round(percentile(latencies, 50)),
    p95_ms: Math.round(p95),
    p99_ms: Math.round(percentile(latencies, 99)),
    max_ms: Math.round(latencies.at(-1) ?? Number.NaN),
    deliveries_per_s: Math.round(deliveredTimes.length / deliverySpan),
    workers: [
      args['api-worker'] === 'off' ? '' : "the app's in-process worker",
      EXTRA_WORKERS ? `${EXTRA_WORKERS} worker process(es)` : '',
    ]
      .filter(Boolean)
      .join(' + ')
      .concat(`, WEBHOOK_CONCURRENCY ${args.concurrency}`),
  };
  if (!complete || missing > 0 || badSignatures > 0 || sent.errors > 0) exitCode = 1;

  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const database = `${externalDatabase ? 'DATABASE_URL' : 'embedded'} ${new URL(dbServer.url).host}`;
  const section = [
    '',
    `## Webhook delivery (npm run bench:webhooks), run of ${when} UTC`,
    '',
    `Machine: ${machine()}. PostgreSQL at ${database}. ${report.workers}, Node flags \`${startFlags().join(' ')}\` (npm start's); receiver on 127.0.0.1 in the bench process, verifying every signature.`,
    '',
    `${PACKAGES} packages sent through POST /version-test/api/1.1/wf/package, by autocannon in its own process at ${RATE}/s over ${CONNECTIONS} connections (accepted ${report.accepted_per_s}/s; second by second ${report.accepted_by_second.join(', ')}; autocannon paces by the second: each connection sends its share of a second's requests as fast as they are answered, then waits for the next second, so packages arrive in bursts at the start of each second), after ${Math.min(PACKAGES, 2 * RATE)} at the same rate for warm-up. Latency is from each 200 to the delivery's arrival.`,
    '',
    '| Goal | p50 | p95 | p99 | max | deliveries/s | delivered | duplicates | bad signatures | Result |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    `| p95 < 250 ms at 500 packages/s | ${report.p50_ms} ms | ${report.p95_ms} ms | ${report.p99_ms} ms | ${report.max_ms} ms | ${report.deliveries_per_s} | ${report.delivered}/${report.accepted} | ${duplicates} | ${badSignatures} | ${report.met ? '**met**' : '**missed**'} |`,
    '',
  ].join('\n');
  if (!args['no-write']) {
    appendFileSync('bench/RESULTS.md', section);
    await formatResults('bench/RESULTS.md');
  }
  console.error(section);
  console.log(JSON.stringify(report));
} catch (error) {
  exitCode = 1;
  console.error(error);
} finally {
  await Promise.all(children.map((child) => child.stop('SIGTERM', { timeoutMs: 15_000 })));
  receiverServer.close();
  await dropDatabase(dbServer.url, dbName).catch(() => undefined);
  await dbServer.stop();
}
process.exit(exitCode);
