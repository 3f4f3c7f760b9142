// Start to first 200 (`npm run bench -- --only startup`): how long `npm start`'s command takes from
// spawn to its first 200 on an API path (a rate request with a token: database, cards, pipeline) and
// on a portal page (/sign-in, rendered by Next), both polled every 20 ms from the spawn on. Measured
// for the compiled start (`npm start`: node on dist/start.js, built by `npm run build`) and, in the
// same run, for the old way (the same supervisor from source under tsx: `node --import tsx --import
// ./scripts/hooks/server-only.mjs server/start.ts`, what `npm start` ran before), alternately, each
// several times:
//   - on the embedded PostgreSQL, as `npm start` runs on a laptop: its data directory already
//     initialised, so the time includes starting PostgreSQL, the migrations' check and the seed;
//   - on DATABASE_URL (the bench's database): the app alone.
// Also once: the very first start, which creates the embedded database (initdb, every migration).
// One worker (APP_WORKERS=1), NODE_ENV=production. Also the resident memory of the supervisor and
// of its worker once both answered.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { generateToken } from '@/lib/auth/tokens';
import { removeEmbeddedDatabase } from '../scripts/database.mjs';
import { RATE_BODY, RATE_PATH } from './support/fixtures';
import { freePort, NODE_HOOKS, rssMb, startFlags } from './support/processes';
import { childPids, spawnProcess, startCommand } from '../e2e/api/support/spawn';

export type Variant = 'compiled' | 'tsx';

export interface StartSample {
  variant: Variant;
  database: 'embedded' | 'embedded, first start' | 'DATABASE_URL';
  /** ms from spawn to the first 200 to the rate request (undefined: no token yet, see apiAnswerMs). */
  apiMs?: number;
  /** ms from spawn to the API's first answer of any kind (a 401 without a token). */
  apiAnswerMs?: number;
  /** ms from spawn to the first 200 on /sign-in. */
  portalMs: number;
  supervisorRssMb: number;
  workerRssMb: number;
}

export function commandOf(variant: Variant): string[] {
  // The compiled one is `npm start`'s own (package.json); the old one, the same V8 flags on the sources.
  return variant === 'compiled' ? startCommand() : [...startFlags(), ...NODE_HOOKS, 'server/start.ts'];
}

async function firstStatus(
  url: string,
  init: RequestInit,
  wanted: (status: number) => boolean,
  signal: AbortSignal,
): Promise<number> {
  for (;;) {
    if (signal.aborted) throw new Error('gave up');
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (wanted(response.status)) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One start of `variant`, timed from the spawn; stopped (SIGTERM, waited for) before it returns. */
export async function timeStart(options: {
  variant: Variant;
  database: StartSample['database'];
  env: NodeJS.ProcessEnv;
  token?: string;
  timeoutMs?: number;
}): Promise<StartSample> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...options.env, PORT: String(port) };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const giveUp = new AbortController();
  const started = performance.now();
  const proc = spawnProcess({ name: `npm start (${options.variant})`, args: commandOf(options.variant), env, output: 'stderr' });
  try {
    const rate = (token?: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
      body: RATE_BODY,
    });
    const api = options.token
      ? firstStatus(base + RATE_PATH, rate(options.token), (s) => s === 200, giveUp.signal)
      : firstStatus(base + RATE_PATH, rate(), (s) => s === 401, giveUp.signal);
    const portal = firstStatus(`${base}/sign-in`, { method: 'GET' }, (s) => s === 200, giveUp.signal);
    const exited = proc.exited.then((code) => {
      throw new Error(`${proc.name} exited with ${code} before answering:\n${proc.output().slice(-4_000)}`);
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(
        () =>
          reject(
            new Error(`${proc.name}: no 200 within ${(options.timeoutMs ?? 180_000) / 1000} s:\n${proc.output().slice(-4_000)}`),
          ),
        options.timeoutMs ?? 180_000,
      ).unref(),
    );
    const [apiAt, portalAt] = await Promise.race([Promise.all([api, portal]), exited, timeout]);
    const [worker] = childPids(proc.pid);
    return {
      variant: options.variant,
      database: options.database,
      ...(options.token ? { apiMs: Math.round(apiAt - started) } : { apiAnswerMs: Math.round(apiAt - started) }),
      portalMs: Math.round(portalAt - started),
      supervisorRssMb: Math.round(rssMb(proc.pid)),
      workerRssMb: worker ? Math.round(rssMb(worker)) : Number.NaN,
    };
  } finally {
    giveUp.abort();
    await proc.stop('SIGTERM', { timeoutMs: 30_000 });
  }
}

/**
 * `npm start`'s command from spawn to its first 200 on /readyz (database, migrations, webhook worker: what a load
 * balancer waits for), polled every 20 ms; stopped (SIGTERM, waited for) before it returns.
 */
export async function timeReady(env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<number> {
  const port = await freePort();
  const spawnEnv: NodeJS.ProcessEnv = { ...env, PORT: String(port) };
  for (const [key, value] of Object.entries(spawnEnv)) if (value === undefined) delete spawnEnv[key];
  const giveUp = new AbortController();
  const started = performance.now();
  const proc = spawnProcess({ name: 'npm start', args: commandOf('compiled'), env: spawnEnv, output: 'stderr' });
  try {
    const ready = firstStatus(`http://127.0.0.1:${port}/readyz`, { method: 'GET' }, (s) => s === 200, giveUp.signal);
    const exited = proc.exited.then((code) => {
      throw new Error(`npm start exited with ${code} before it was ready:\n${proc.output().slice(-4_000)}`);
    });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`npm start: not ready within ${timeoutMs / 1000} s`)), timeoutMs).unref(),
    );
    return (await Promise.race([ready, exited, timeout])) - started;
  } finally {
    giveUp.abort();
    await proc.stop('SIGTERM', { timeoutMs: 30_000 });
  }
}

/**
 * Start to ready (`npm run bench -- --only ready`, and the check): `rounds` starts on an embedded database that
 * already exists (.data/postgres-bench-ready, kept between runs; made by an uncounted first start if missing),
 * then `rounds` on `databaseUrl` (migrated: the app alone). Milliseconds of each start.
 */
export async function measureReady(options: {
  databaseUrl: string;
  rounds: number;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}): Promise<{ embedded: number[]; external: number[] }> {
  const base: NodeJS.ProcessEnv = { ...options.env, NODE_ENV: 'production' };
  const embeddedEnv: NodeJS.ProcessEnv = { ...base, DATABASE_URL: undefined, EMBEDDED_PG_DIR: '.data/postgres-bench-ready' };
  const embedded: number[] = [];
  const external: number[] = [];
  const first = await timeReady(embeddedEnv);
  options.log(`ready: a start to make sure the embedded database exists: ${Math.round(first)} ms (not counted)`);
  for (let round = 0; round < options.rounds; round += 1) {
    embedded.push(await timeReady(embeddedEnv));
    external.push(await timeReady({ ...base, DATABASE_URL: options.databaseUrl }));
    options.log(`ready: embedded ${Math.round(embedded.at(-1)!)} ms, DATABASE_URL ${Math.round(external.at(-1)!)} ms`);
  }
  return { embedded, external };
}

/** A test token in the database at `url` (plain SQL: the app's own tables). */
export async function tokenIn(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const account = await client.query<{ id: string }>(
      'INSERT INTO accounts (id, name) VALUES (gen_random_uuid(), $1) RETURNING id',
      [`Startup bench ${Date.now()}`],
    );
    const { token, hash, displayPrefix } = generateToken('test');
    await client.query(
      `INSERT INTO api_tokens (id, account_id, environment, token_hash, display_prefix) VALUES (gen_random_uuid(), $1, 'test', $2, $3)`,
      [account.rows[0]?.id, hash, displayPrefix],
    );
    return token;
  } finally {
    await client.end();
  }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

/**
 * The whole measurement: the first start on a new embedded database, then `rounds` starts of each
 * variant alternately on it, then as many on `databaseUrl` (with `token`). Returns every sample and a
 * Markdown table of medians (min–max).
 */
export async function measureStartup(options: {
  databaseUrl: string;
  token: string;
  rounds: number;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}): Promise<{ samples: StartSample[]; table: string }> {
  const samples: StartSample[] = [];
  const base: NodeJS.ProcessEnv = { ...options.env, NODE_ENV: 'production', APP_WORKERS: '1' };
  const dataDir = `.data/postgres-bench-startup-${process.pid}`;
  const embedded: NodeJS.ProcessEnv = {
    ...base,
    DATABASE_URL: undefined,
    EMBEDDED_PG_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
  };
  try {
    const first = await timeStart({ variant: 'compiled', database: 'embedded, first start', env: embedded });
    options.log(`startup: first start (creates the embedded database): ${JSON.stringify(first)}`);
    samples.push(first);
    const port = Number(
      (JSON.parse(readFileSync(`${dataDir}.json`, 'utf8')) as { port?: number }).port ?? embedded.EMBEDDED_PG_PORT,
    );
    // The embedded server is stopped between starts; a token goes in while one runs it for us.
    const embeddedToken = await withEmbedded(dataDir, port, (url) => tokenIn(url));
    for (let round = 0; round < options.rounds; round += 1) {
      for (const variant of round % 2 === 0 ? (['compiled', 'tsx'] as const) : (['tsx', 'compiled'] as const)) {
        const sample = await timeStart({ variant, database: 'embedded', env: embedded, token: embeddedToken });
        options.log(`startup: ${JSON.stringify(sample)}`);
        samples.push(sample);
      }
    }
  } finally {
    await removeEmbeddedDatabase(dataDir).catch(() => undefined);
  }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const variant of round % 2 === 0 ? (['compiled', 'tsx'] as const) : (['tsx', 'compiled'] as const)) {
      const sample = await timeStart({
        variant,
        database: 'DATABASE_URL',
        env: { ...base, DATABASE_URL: options.databaseUrl },
        token: options.token,
      });
      options.log(`startup: ${JSON.stringify(sample)}`);
      samples.push(sample);
    }
  }
  return { samples, table: startupTable(samples) };
}

/** Runs `work` with the embedded cluster in `dataDir` started on `port` (and stopped after). */
async function withEmbedded<T>(dataDir: string, port: number, work: (url: string) => Promise<T>): Promise<T> {
  const { ensureDatabase } = await import('../scripts/database.mjs');
  const server = await ensureDatabase({ dataDir, port, embedded: true });
  try {
    return await work(server.url);
  } finally {
    await server.stop();
  }
}

export function startupTable(samples: StartSample[]): string {
  const spread = (xs: number[]) =>
    xs.length === 0 ? '—' : xs.length === 1 ? `${xs[0]}` : `${median(xs)} (${Math.min(...xs)}–${Math.max(...xs)})`;
  const groups = new Map<string, StartSample[]>();
  for (const sample of samples) {
    const key = `${sample.database}|${sample.variant}`;
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  const lines = [
    '| Database | Start | n | First 200, API (ms) | First 200, portal page (ms) | RSS supervisor / worker at ready (MB) |',
    '|---|---|---|---|---|---|',
  ];
  for (const [key, group] of groups) {
    const [database, variant] = key.split('|');
    const api = group.flatMap((s) => (s.apiMs === undefined ? [] : [s.apiMs]));
    const answer = group.flatMap((s) => (s.apiAnswerMs === undefined ? [] : [s.apiAnswerMs]));
    const apiCell = api.length ? spread(api) : `first answer ${spread(answer)} (no token yet: a 401)`;
    const command = variant === 'compiled' ? '`npm start` (node dist/start.js)' : 'old: tsx on server/start.ts';
    lines.push(
      `| ${database} | ${command} | ${group.length} | ${apiCell} | ${spread(group.map((s) => s.portalMs))} | ${median(group.map((s) => s.supervisorRssMb))} / ${median(group.map((s) => s.workerRssMb))} |`,
    );
  }
  return lines.join('\n');
}
