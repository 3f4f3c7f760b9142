// npm run bench [-- --duration 10 --soak-seconds 60 --only rate,package,manifest,bounded,webhooks,portal,soak --profile miss --no-write]
//
// Measures every operation on the production server (`npm start`'s command: scripts/start.ts with one
// worker running scripts/server.ts, on the production build; memory is the worker's) and,
// in the same run on the same machine, its baseline: what this machine can do at most for that
// operation without our server around it (bench/baselines/server.ts). Load comes from autocannon;
// the servers are child processes whose resident memory is sampled from /proc. Where a goal is
// missed, the server is run again under `node --cpu-prof` and the profile's top frames go into
// the results. Appends the run to bench/RESULTS.md and writes bench/results/<date>.json.
//
// Needs `npm run build` first (the portal benchmark and the production server serve the build).
// Database: a fresh database per run on DATABASE_URL's server, or on the embedded PostgreSQL.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { seedRateCards } from '../prisma/seed';
import { createDatabase, dropDatabase, ensureDatabase } from '../scripts/database.mjs';
import { migrateDeploy } from '../scripts/migrate.mjs';
import { MANIFEST_PATH, PACKAGE_PATH, PACKAGE_TEMPLATE, RATE_BODY, RATE_PATH, manifestTemplate, uniqueIds } from './support/fixtures';
import { runLoad, type LoadOptions, type LoadResult } from './support/load';
import { NODE_HOOKS, freePort, loadConditions, peak, sampleMemory, startAppProcess, startFlags, startProcess, type ServerProcess } from './support/processes';
import { formatProfile, summariseProfile } from './support/profile';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    'soak-seconds': { type: 'string', default: '60' },
    only: { type: 'string', default: 'rate,package,manifest,bounded,webhooks,portal,soak' },
    profile: { type: 'string', default: 'miss' }, // miss | always | never
    'rate-connections': { type: 'string', default: '32' },
    'package-connections': { type: 'string', default: '16' },
    'manifest-connections': { type: 'string', default: '1' },
    'manifest-packages': { type: 'string', default: '1000' },
    'no-next-start': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    // Print the report without appending it to bench/RESULTS.md (nor writing bench/results/).
    'no-write': { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const SOAK_SECONDS = Number(args['soak-seconds']);
const ONLY = new Set(args.only.split(',').map((s) => s.trim()));
const WARMUP_SECONDS = Math.min(3, DURATION);
const PROFILE_SECONDS = Math.min(10, Math.max(DURATION, 5));

if (!existsSync('.next/BUILD_ID')) {
  console.error('npm run bench serves the production build: run `npm run build` first.');
  process.exit(2);
}

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

// --- Database, account, token, webhook endpoint ------------------------------------------------

const startedAt = new Date();
const conditionsBefore = loadConditions();
const busyBefore = otherBusyProcesses();
const dbServer = await ensureDatabase({ dataDir: '.data/postgres-bench', port: Number(process.env.EMBEDDED_PG_BENCH_PORT ?? 5435) });
const dbName = `carrier_bench_${process.pid}_${Date.now()}`;
const databaseUrl: string = await createDatabase(dbServer.url, dbName);
await migrateDeploy(databaseUrl);
await seedRateCards(databaseUrl);
process.env.DATABASE_URL = databaseUrl;
process.env.LOG_LEVEL = 'warn';
const { createApiToken, findOrCreateAccount } = await import('@/lib/accounts/create-api-token');
const account = await findOrCreateAccount({ name: `Bench ${startedAt.toISOString()}` });
const { token } = await createApiToken({ accountId: account.id, environment: 'test', name: 'bench' });
{
  // A webhook registered for package.sorting, so that each package also writes its outbox rows.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `INSERT INTO webhook_endpoints (id, account_id, environment, url, events, secret, updated_at)
     VALUES ('we_bench', $1::uuid, 'test', 'http://127.0.0.1:9/bench-hook', ARRAY['package.sorting'], $2, now())`,
    [account.id, `whsec_${Buffer.alloc(24, 7).toString('base64')}`],
  );
  await client.end();
}
const { db } = await import('@/lib/db');
await db.$disconnect();
const auth = { authorization: `Token ${token}` };

const serverEnv: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  NODE_ENV: 'production',
  // Production needs the key webhook secrets are encrypted under; the database is the run's own.
  WEBHOOK_SECRETS_KEY: process.env.WEBHOOK_SECRETS_KEY || randomBytes(32).toString('base64'),
  // Production's default: one JSON line per request (to /dev/null here; its cost is measured).
  LOG_LEVEL: 'info',
  // One token drives all the load; the per-token limit (100/s by default) would answer 429.
  API_RATE_LIMIT_PER_SECOND: '1000000000',
  API_RATE_LIMIT_BURST: '1000000000',
  // Deliveries are measured on their own (the webhooks benchmark); here the API alone.
  WEBHOOK_WORKER: 'off',
};
// The production server runs with the V8 flags that `npm start` gives it (package.json), plus any
// in BENCH_SERVER_NODE_FLAGS (to try settings).
const START_FLAGS = startFlags();
const SERVER_NODE_FLAGS = [...START_FLAGS, ...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean)];
const profileDir = path.join(ROOT, '.data/bench/profiles');
mkdirSync(profileDir, { recursive: true });

const buildIdAtStart = readFileSync('.next/BUILD_ID', 'utf8').trim();
const buildNotes = new Set<string>();

/**
 * Starts the production server. If .next is being rebuilt meanwhile (someone ran `npm run build`:
 * Next empties it first), waits for the build to finish, up to 10 minutes, and tries again.
 */
async function startSubject(options: { profileName?: string } = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSubjectOnce(options);
    } catch (error) {
      if (attempt >= 3 || !/production build/.test((error as Error).message)) throw error;
      log('no production build in .next (a build is running?); waiting for it');
      const deadline = Date.now() + 600_000;
      while (!existsSync('.next/BUILD_ID') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2_000));
      await new Promise((r) => setTimeout(r, 3_000));
      buildNotes.add('`.next` was rebuilt during this run (by another `npm run build`); the server waited for the new build.');
    }
  }
}

async function startSubjectOnce(options: { profileName?: string }): Promise<ServerProcess> {
  // One directory per profile: Node writes one file per thread (module hooks run on a thread of their own),
  // and one per process (the supervisor's and its worker's; the worker inherits the flags).
  const profileArgs = options.profileName ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, options.profileName)}`] : [];
  // `npm start`'s command (one worker), plus any BENCH_SERVER_NODE_FLAGS.
  return startAppProcess({
    name: 'production server',
    nodeArgs: [...profileArgs, ...SERVER_NODE_FLAGS.slice(START_FLAGS.length)],
    env: serverEnv,
    readyPath: RATE_PATH,
  });
}

async function startBaseline(kind: 'rate' | 'package' | 'manifest'): Promise<ServerProcess> {
  const port = await freePort();
  return startProcess({
    name: `${kind} baseline`,
    // The same V8 flags as the production server: the comparison is of the work, not of the runtime's settings.
    args: [...START_FLAGS, ...NODE_HOOKS, 'bench/baselines/server.ts'],
    env: { ...serverEnv, BASELINE: kind, BENCH_ACCOUNT_ID: account.id },
    port,
    readyPath: '/',
  });
}

async function startNextStart(): Promise<ServerProcess> {
  const port = await freePort();
  return startProcess({
    name: 'next start',
    args: ['node_modules/next/dist/bin/next', 'start', '--port', String(port)],
    env: serverEnv,
    port,
    readyPath: RATE_PATH,
  });
}

// --- Measuring -----------------------------------------------------------------------------------

interface Measured extends LoadResult {
  peakRssMb: number;
}

/** A warm-up (not counted), then the measured load with the server's memory sampled throughout. */
async function measure(server: ServerProcess, load: Omit<LoadOptions, 'url' | 'durationSeconds'>, seconds = DURATION): Promise<Measured> {
  await check(server, load);
  if (WARMUP_SECONDS > 0) await runLoad({ ...load, url: server.url, durationSeconds: WARMUP_SECONDS });
  const memory = sampleMemory(server.pid);
  const result = await runLoad({ ...load, url: server.url, durationSeconds: seconds });
  const samples = memory.stop();
  const measured = { ...result, peakRssMb: peak(samples) };
  log(`${server.name} ${load.path}: ${fmt(measured)}`);
  if (measured.errors > 0 || measured.non2xx > 0) log(`  ${measured.errors} errors, ${measured.non2xx} non-2xx answers`);
  return measured;
}

/** One request first: a benchmark of error answers would measure the wrong thing. */
async function check(server: ServerProcess, load: Omit<LoadOptions, 'url' | 'durationSeconds'>): Promise<void> {
  const body = typeof load.body === 'string' ? load.body : load.body();
  const response = await fetch(server.url + load.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...load.headers },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${server.name} answered ${response.status} to ${load.path}: ${text.slice(0, 500)}`);
}

async function profileSubject(name: string, load: Omit<LoadOptions, 'url' | 'durationSeconds'>): Promise<string> {
  const dir = `${name}-${startedAt.toISOString().replaceAll(':', '-').slice(0, 19)}`;
  const server = await startSubject({ profileName: dir });
  try {
    await runLoad({ ...load, url: server.url, durationSeconds: WARMUP_SECONDS });
    await runLoad({ ...load, url: server.url, durationSeconds: PROFILE_SECONDS });
  } finally {
    await server.stop();
  }
  // The worker's main thread: CPU.<date>.<time>.<pid>.<thread id 0>.<seq>.cpuprofile
  const main = existsSync(path.join(profileDir, dir))
    ? readdirSync(path.join(profileDir, dir)).find((f) => f.includes(`.${server.pid}.0.`) && /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    : undefined;
  if (!main) return `(no profile of the main thread written to .data/bench/profiles/${dir})`;
  const file = path.join(dir, main);
  return `Profile of the production server under the same load for ${PROFILE_SECONDS} s (\`.data/bench/profiles/${file}\`):\n\n${formatProfile(summariseProfile(path.join(profileDir, file)))}`;
}

function fmt(m: Measured): string {
  return `p50 ${m.p50} ms, p99 ${m.p99} ms, ${Math.round(m.rps)} req/s, peak RSS ${Math.round(m.peakRssMb)} MB`;
}

interface Row {
  name: string;
  load: string;
  subject?: Measured;
  baseline?: Measured;
  baselineName: string;
  goal: string;
  met?: boolean;
  verdict: string;
  notes: string[];
}

const rows: Row[] = [];
const extra: string[] = [];

async function withServer<T>(start: () => Promise<ServerProcess>, work: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await start();
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

async function maybeProfile(row: Row, name: string, load: Omit<LoadOptions, 'url' | 'durationSeconds'>): Promise<void> {
  if (args.profile === 'always' || (args.profile === 'miss' && row.met === false)) {
    log(`profiling ${name}`);
    try {
      row.notes.push(await profileSubject(name, load));
    } catch (error) {
      row.notes.push(`Profiling failed: ${(error as Error).message.split('\n').slice(0, 6).join(' ')}`);
    }
  }
}

// --- The benchmarks -----------------------------------------------------------------------------

/** Runs one benchmark; a failure becomes a row of the table instead of ending the run. */
async function attempt(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    log(`${name} failed: ${(error as Error).message}`);
    rows.push({
      name,
      load: '',
      baselineName: '',
      goal: '',
      verdict: `failed: ${(error as Error).message.split('\n')[0]}`,
      notes: [`${name} failed:\n\n\`\`\`\n${String((error as Error).stack ?? error).slice(0, 3000)}\n\`\`\``],
    });
    // A server that failed may be gone; start a fresh one for the next benchmark.
    await subject?.stop().catch(() => undefined);
    subject = undefined;
  }
}

let subject: ServerProcess | undefined;
const subjectServer = async () => (subject ??= await startSubject());

try {
  if (ONLY.has('rate')) await attempt('Rate', async () => {
    const connections = Number(args['rate-connections']);
    const load = { path: RATE_PATH, connections, headers: auth, body: RATE_BODY };
    const baseline = await withServer(() => startBaseline('rate'), (s) => measure(s, load));
    const measured = await measure(await subjectServer(), load);
    const share = measured.rps / baseline.rps;
    const met = share >= 0.3 && measured.p99 < 10;
    const row: Row = {
      name: 'Rate, all services, token auth, cards cached',
      load: `${connections} connections, ${DURATION} s`,
      subject: measured,
      baseline,
      baselineName: bare('node:http computing the same quote (parse, validate, quote, JSON)'),
      goal: '≥ 30 % of baseline req/s, p99 < 10 ms',
      met,
      verdict: `${pct(share)} of baseline, p99 ${measured.p99} ms`,
      notes: [],
    };
    rows.push(row);
    if (!args['no-next-start']) {
      const viaNext = await withServer(startNextStart, (s) => measure(s, load));
      row.notes.push(
        `For scale, the same load through \`next start\` and the route handlers: ${fmt(viaNext)} (${pct(viaNext.rps / baseline.rps)} of baseline).`,
      );
    }
    await maybeProfile(row, 'rate', load);
  });

  if (ONLY.has('package')) await attempt('Package manifest', async () => {
    const connections = Number(args['package-connections']);
    const next = uniqueIds('BP');
    const body = () => PACKAGE_TEMPLATE.replace('__TN__', next());
    const load = { path: PACKAGE_PATH, connections, headers: auth, body };
    const baseline = await withServer(() => startBaseline('package'), (s) => measure(s, load));
    const measured = await measure(await subjectServer(), load);
    const share = measured.rps / baseline.rps;
    const row: Row = {
      name: 'Package manifest, webhook registered (outbox rows written)',
      load: `${connections} connections, ${DURATION} s`,
      subject: measured,
      baseline,
      baselineName: bare('the same SQL statements sent with `pg` directly (pool of 10)'),
      goal: '≥ 50 % of baseline req/s',
      met: share >= 0.5,
      verdict: `${pct(share)} of baseline`,
      notes: [],
    };
    rows.push(row);
    await maybeProfile(row, 'package', load);
  });

  if (ONLY.has('manifest')) await attempt('Container manifest', async () => {
    const connections = Number(args['manifest-connections']);
    const count = Number(args['manifest-packages']);
    const template = manifestTemplate(count);
    const next = uniqueIds('BC');
    const body = () => template.replaceAll('__C__', next());
    const load = { path: MANIFEST_PATH, connections, headers: auth, body };
    const baseline = await withServer(() => startBaseline('manifest'), (s) => measure(s, load));
    const measured = await measure(await subjectServer(), load);
    const row: Row = {
      name: `Container manifest, ${count.toLocaleString('en-US')} packages`,
      load: `${connections} connection(s), ${DURATION} s`,
      subject: measured,
      baseline,
      baselineName: bare('one multi-row `unnest` insert of the same rows (plus the container row)'),
      goal: 'p50 < 100 ms',
      met: measured.p50 < 100,
      verdict: `p50 ${measured.p50} ms (baseline ${baseline.p50} ms)`,
      notes: [],
    };
    rows.push(row);
    await maybeProfile(row, 'manifest', load);
  });
} finally {
  await subject?.stop();
}

// The worst bodies the 5 MB limit allows (bench/bounded.ts), on a server of their own so that its memory is theirs alone.
if (ONLY.has('bounded'))
  await attempt('Worst-shape bodies', () =>
    withServer(startSubject, async (server) => {
      const { measureWorstBodies } = await import('./bounded');
      for (const result of await measureWorstBodies({ server, headers: auth, log })) {
        const met = result.status >= 400 && result.status < 500 && result.ms < 1_000 && result.peakRssMb < 400;
        rows.push({
          name: `Worst body: ${result.shape}, \`POST ${result.path.replace('/version-test/api/1.1', '…')}\``,
          load: `${(result.bytes / 2 ** 20).toFixed(1)} MB, 3 tries`,
          baselineName: '—',
          goal: '4xx < 1 s, peak RSS < 400 MB',
          met,
          verdict: `${result.status} in ${result.ms} ms (slowest), ${result.answerBytes}-byte answer, peak RSS ${result.peakRssMb} MB`,
          notes: [],
        });
      }
    }),
  );

// Webhooks and portal run their own processes. Both before the soak: its hundred thousand packages
// leave the database vacuuming for a while afterwards, which the webhook benchmark would measure.
if (ONLY.has('webhooks')) rows.push(await webhooksRow());
if (ONLY.has('portal')) rows.push(...(await portalRows()));

if (ONLY.has('soak'))
  await attempt('Memory soak', () =>
    withServer(startSubject, async (server) => {
      log(`soak: ${SOAK_SECONDS} s of rate (8 connections) and package (8 connections) load together`);
      const next = uniqueIds('SK');
      const memory = sampleMemory(server.pid, 1000);
      const [rate, pkg] = await Promise.all([
        runLoad({ url: server.url, path: RATE_PATH, connections: 8, headers: auth, body: RATE_BODY, durationSeconds: SOAK_SECONDS }),
        runLoad({ url: server.url, path: PACKAGE_PATH, connections: 8, headers: auth, body: () => PACKAGE_TEMPLATE.replace('__TN__', next()), durationSeconds: SOAK_SECONDS }),
      ]);
      const samples = memory.stop();
      extra.push(soakReport(samples, rate, pkg));
    }),
  );

// --- Webhook delivery: the webhook engineer's benchmark (npm run bench:webhooks) ----------------

async function webhooksRow(): Promise<Row> {
  const row: Row = {
    name: 'Webhook delivery, acceptance → delivery',
    load: '500 packages a second',
    baselineName: '—',
    goal: 'p95 < 500 ms',
    verdict: 'pending',
    notes: [],
  };
  log('running npm run bench:webhooks');
  // --no-write: this run writes the table; the webhook benchmark would otherwise append its own.
  const { code, stdout, stderr } = await run('npm', ['run', '--silent', 'bench:webhooks', '--', '--no-write'], { ...process.env, DATABASE_URL: dbServer.url });
  const report = lastJsonLine(stdout);
  const p95 = report && Number(report.p95_ms);
  if (!report || !Number.isFinite(p95)) {
    row.verdict = `no result (exit ${code})`;
    row.notes.push(`Output of \`npm run bench:webhooks\` (last lines):\n\n\`\`\`\n${(stdout + stderr).trim().split('\n').slice(-25).join('\n')}\n\`\`\``);
    return row;
  }
  // The verdict is the webhook benchmark's own; a non-zero exit means deliveries missing or signatures bad.
  row.met = code === 0 && report.met === true;
  row.verdict = `p95 ${p95} ms at ${String(report.accepted_per_s)} packages/s accepted`;
  row.notes.push(`\`npm run bench:webhooks\` (exit ${code}) reported: \`${JSON.stringify(report)}\``);
  return row;
}

// --- Portal: the manifest builder in Chromium ----------------------------------------------------

async function portalRows(): Promise<Row[]> {
  const { measurePortal } = await import('./portal');
  const server = await startSubject();
  try {
    const result = await measurePortal({ baseUrl: server.url, rows: 5000 });
    const render: Row = {
      name: 'Portal: manifest builder (/manifests/new), first render',
      load: 'one signed-in user, Chromium',
      baselineName: '—',
      goal: 'reported (no target given)',
      verdict: result.pending ?? `first contentful paint ${result.fcpMs} ms, grid shown at ${result.gridVisibleMs} ms`,
      notes: result.notes,
    };
    const keystroke: Row = {
      name: 'Portal: keystroke in a 5,000-row grid, painted',
      load: `${result.keystrokes?.length ?? 0} keystrokes`,
      baselineName: '—',
      goal: 'each < 50 ms',
      met: result.pending ? undefined : (result.keystrokeP95Ms ?? Infinity) < 50 && (result.keystrokeMaxMs ?? Infinity) < 50,
      verdict: result.pending ?? `p50 ${result.keystrokeP50Ms} ms, p95 ${result.keystrokeP95Ms} ms, max ${result.keystrokeMaxMs} ms`,
      notes: [],
    };
    return [render, keystroke];
  } catch (error) {
    return [
      {
        name: 'Portal: manifest builder',
        load: 'Chromium',
        baselineName: '—',
        goal: 'first render; keystroke < 50 ms',
        verdict: `failed: ${(error as Error).message.split('\n')[0]}`,
        notes: [`\`\`\`\n${String((error as Error).stack ?? error).slice(0, 2000)}\n\`\`\``],
      },
    ];
  } finally {
    await server.stop();
  }
}

// --- Report --------------------------------------------------------------------------------------

function soakReport(samples: { t: number; mb: number }[], rate: LoadResult, pkg: LoadResult): string {
  // The first 20 % is warm-up (JIT, caches, pools filling); growth is judged on the rest.
  const settled = samples.filter((s) => s.t >= SOAK_SECONDS * 0.2);
  const window = Math.max(1, Math.floor(settled.length * 0.15));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const early = median(settled.slice(0, window).map((s) => s.mb));
  const late = median(settled.slice(-window).map((s) => s.mb));
  const slope = linearSlope(settled.map((s) => [s.t, s.mb]));
  const top = peak(samples);
  const grows = late - early > Math.max(20, early * 0.1);
  return [
    `### Memory soak: ${SOAK_SECONDS} s on the production server`,
    '',
    `Rate at 8 connections (${Math.round(rate.rps)} req/s, p99 ${rate.p99} ms) and package at 8 connections (${Math.round(pkg.rps)} req/s, p99 ${pkg.p99} ms) together. ` +
      `Errors: ${rate.errors + pkg.errors}, non-2xx: ${rate.non2xx + pkg.non2xx}.`,
    '',
    `| Peak RSS | RSS after warm-up (median of first 15 %) | RSS at the end (median of last 15 %) | Trend after warm-up | Under 400 MB | Not growing |`,
    `|---:|---:|---:|---:|:---:|:---:|`,
    `| ${top.toFixed(0)} MB | ${early.toFixed(0)} MB | ${late.toFixed(0)} MB | ${(slope * 60).toFixed(1)} MB/min | ${top < 400 ? 'yes' : '**no**'} | ${grows ? '**no**' : 'yes'} |`,
    '',
    `"Not growing": the end is within max(20 MB, 10 %) of the start after warm-up. ${SOAK_SECONDS < 300 ? `This run was ${SOAK_SECONDS} s; the goal asks for 5 minutes: \`npm run bench -- --only soak --soak-seconds 300\`.` : ''}`,
    '',
    `RSS every ${Math.max(1, Math.round(samples.length / 30))} s: ${samples
      .filter((_, i) => i % Math.max(1, Math.round(samples.length / 30)) === 0)
      .map((s) => s.mb.toFixed(0))
      .join(' ')} MB`,
  ].join('\n');
}

function linearSlope(points: number[][]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** The memory goal applies under every load: the server's peak resident memory stays under 400 MB. */
function memoryVerdict(m: Measured | undefined): string {
  if (!m) return '';
  return m.peakRssMb < 400 ? `; memory under 400 MB` : `; **memory missed: peak ${Math.round(m.peakRssMb)} MB ≥ 400 MB**`;
}

function bare(what: string): string {
  return `bare ${what}`;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)} %`;
}

function cell(m: Measured | undefined): string {
  if (!m) return '—';
  const flags = m.errors + m.non2xx > 0 ? ` ⚠ ${m.errors} errors, ${m.non2xx} non-2xx` : '';
  return `${m.p50} / ${m.p99} ms · ${Math.round(m.rps).toLocaleString('en-US')} req/s · ${Math.round(m.peakRssMb)} MB${flags}`;
}

function otherBusyProcesses(): string {
  try {
    const out = execFileSync('ps', ['-eo', 'pcpu,rss,args', '--sort=-pcpu'], { encoding: 'utf8' });
    return out
      .split('\n')
      .slice(1, 7)
      .map((line) => line.trim().replace(/\s+/g, ' ').slice(0, 110))
      .filter((line) => line && !line.startsWith('0.0'))
      .join('; ');
  } catch {
    return 'unknown';
  }
}

function run(command: string, argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-20_000)));
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The benchmark's report line: the last JSON object with results in it (server log lines are JSON too). */
function lastJsonLine(text: string): Record<string, unknown> | undefined {
  for (const line of text.trim().split('\n').reverse()) {
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && 'p95_ms' in value) return value;
    } catch {
      // not JSON
    }
  }
  return undefined;
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() ? ' + uncommitted changes' : '';
    return head + dirty;
  } catch {
    return 'unknown';
  }
}

const conditionsAfter = loadConditions();
const report = [
  `## Run of ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Commit ${gitCommit()}; Node ${process.version}; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}; ${Math.round(os.totalmem() / 2 ** 30)} GB; ` +
    `PostgreSQL at ${new URL(dbServer.url).host}. Duration ${DURATION} s per measurement after ${WARMUP_SECONDS} s of warm-up; autocannon ${autocannonVersion()} in the bench process, on the same machine as the servers.`,
  '',
  `Load conditions: before the run ${conditionsBefore}; after it ${conditionsAfter}. Busiest processes at the start: ${busyBefore || 'none'}.` +
    (buildNotes.size || (existsSync('.next/BUILD_ID') && readFileSync('.next/BUILD_ID', 'utf8').trim() !== buildIdAtStart)
      ? ` ${[...buildNotes].join(' ') || 'The production build changed during this run.'}`
      : ''),
  '',
  `Each cell: p50 / p99 latency · requests a second · peak resident memory of that server during the load. Server: \`npm start\`'s command with \`APP_WORKERS=1\` (the worker's memory) on the production build${SERVER_NODE_FLAGS.length ? ` with \`${SERVER_NODE_FLAGS.join(' ')}\`` : ''}, \`LOG_LEVEL=info\` (logs to /dev/null), rate limit lifted, webhook worker off. Baselines: ${START_FLAGS.length ? `the same V8 flags (\`${START_FLAGS.join(' ')}\`, from \`npm start\`)` : 'no V8 flags'}.`,
  '',
  '| Benchmark | Load | Production server | Baseline (same run) | Baseline is | Goal | Result |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.load} | ${cell(r.subject)} | ${cell(r.baseline)} | ${r.baselineName} | ${r.goal} | ${r.met === undefined ? '' : r.met ? '**met**' : '**missed**'} ${r.verdict}${memoryVerdict(r.subject)} |`,
  ),
  '',
  ...rows.flatMap((r) => (r.notes.length ? [`### ${r.name}${r.met === false ? ': why the goal is missed' : ''}`, '', ...r.notes.flatMap((n) => [n, ''])] : [])),
  ...extra.flatMap((e) => [e, '']),
].join('\n');

function autocannonVersion(): string {
  return (JSON.parse(readFileSync('node_modules/autocannon/package.json', 'utf8')) as { version: string }).version;
}

if (!args['no-write']) {
  mkdirSync('bench/results', { recursive: true });
  const stamp = startedAt.toISOString().replaceAll(':', '-').slice(0, 19);
  writeFileSync(`bench/results/${stamp}.json`, JSON.stringify({ startedAt, args, rows, conditionsBefore, conditionsAfter }, null, 2));
  // Appended, like `npm run bench:webhooks` does: the file reads in date order, the newest run last.
  if (!existsSync('bench/RESULTS.md')) {
    writeFileSync('bench/RESULTS.md', '# Benchmark results\n\nWritten by `npm run bench` (bench/run.ts) and `npm run bench:webhooks`, one section per run, the newest last. Every figure sits beside its baseline from the same run.\n\n');
  }
  appendFileSync('bench/RESULTS.md', `${report}\n`);
}
console.log(report);

// Old profiles are large; keep the last ten.
const profiles = readdirSync(profileDir).sort();
for (const old of profiles.slice(0, Math.max(0, profiles.length - 10))) rmSync(path.join(profileDir, old), { recursive: true, force: true });

if (!args.keep) await dropDatabase(dbServer.url, dbName).catch(() => undefined);
await dbServer.stop();
process.exit(0);
