import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { freePort } from '../../../scripts/free-port.mjs';
import pg from 'pg';
import { generateToken } from '@/lib/auth/tokens';
import { createDatabase, databaseUrl, dropDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';

// Tests that kill servers, stop PostgreSQL or run several instances start their own processes and
// databases; the run's shared server is left alone.

export { freePort };

/** A fresh, migrated, seeded database on the same server as `anyDatabaseUrl`. */
export async function freshDatabase(anyDatabaseUrl: string, label: string): Promise<string> {
  const name = `carrier_${label}_${process.pid}_${Date.now()}`;
  const url: string = await createDatabase(anyDatabaseUrl, name);
  await migrateDeploy(url);
  await seedRateCards(url);
  return url;
}

export { databaseUrl };

/** Drops a database made by freshDatabase (connections from killed servers are closed by force). */
export async function dropFreshDatabase(url: string): Promise<void> {
  if (process.env.KEEP_TEST_DATABASE) return;
  await dropDatabase(databaseUrl(url, 'postgres'), new URL(url).pathname.slice(1));
}

/** An account with a test token and, optionally, a package-sorting endpoint, written with plain SQL. */
export async function seedAccount(url: string, options: { webhookUrl?: string; secret?: string } = {}) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const account = await client.query<{ id: string }>('INSERT INTO accounts (id, name) VALUES (gen_random_uuid(), $1) RETURNING id', [`Reliability ${randomUUID()}`]);
    const accountId = account.rows[0].id;
    const { token, hash, displayPrefix } = generateToken('test');
    await client.query(
      `INSERT INTO api_tokens (id, account_id, environment, token_hash, display_prefix) VALUES (gen_random_uuid(), $1, 'test', $2, $3)`,
      [accountId, hash, displayPrefix],
    );
    let endpointId: string | undefined;
    if (options.webhookUrl) {
      endpointId = `we_${randomUUID().replaceAll('-', '')}`;
      await client.query(
        `INSERT INTO webhook_endpoints (id, account_id, environment, url, events, secret) VALUES ($1, $2, 'test', $3, ARRAY['package.sorting'], $4)`,
        [endpointId, accountId, options.webhookUrl, options.secret],
      );
    }
    return { accountId, token, endpointId };
  } finally {
    await client.end();
  }
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  /** Every line the server wrote to stdout or stderr, with when it arrived (for counting log lines). */
  lines: { at: number; text: string }[];
  /** Log lines of errors the server did not expect (answered 500). */
  unexpected: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the bare API server (with its webhook worker) on a database, and waits until it answers.
 * `env` overrides the test defaults below; an `undefined` value removes the variable (the production default).
 */
export async function startApiServer(url: string, env: Record<string, string | undefined> = {}): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const unexpected: string[] = [];
  const lines: { at: number; text: string }[] = [];
  const partial = { stdout: '', stderr: '' };
  const collect = (stream: 'stdout' | 'stderr', text: string) => {
    const parts = (partial[stream] + text).split('\n');
    partial[stream] = parts.pop()!;
    const at = Date.now();
    for (const part of parts) lines.push({ at, text: part });
  };
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/api-server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      API_RATE_LIMIT_PER_SECOND: '100000',
      API_RATE_LIMIT_BURST: '100000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400,800,1600,3200,6400',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '3000',
      // Long enough that a busy machine does not let a lease lapse mid-attempt (a duplicate), short
      // enough that a killed worker's claims come back within the test.
      WEBHOOK_LEASE_MS: '8000',
      ...env,
    } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    collect('stdout', text);
    output = (output + text).slice(-200_000);
    // Unexpected errors are kept whole, however much else is logged after them.
    for (const line of text.split('\n')) if (line.includes('"msg":"unhandled error"')) unexpected.push(line);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    collect('stderr', chunk.toString());
    output = (output + chunk.toString()).slice(-200_000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/version-test/api/1.1/wf/rate`, { method: 'OPTIONS' })).status === 204) break;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error(`api server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    child,
    output: () => output,
    lines,
    unexpected,
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}

export interface Outcome {
  trackingNumber: string;
  status: number;
  code?: string;
  ms: number;
  at: number;
}

/**
 * A steady stream of package requests from `clients` concurrent senders, each waiting for its
 * answer before the next, until stop() is called. Every request and its answer is recorded.
 */
export function packageStream(options: { baseUrl: () => string; token: string; clients?: number; body: (trackingNumber: string) => unknown }) {
  const outcomes: Outcome[] = [];
  let running = true;
  let sequence = 0;
  const prefix = `S${randomUUID().slice(0, 6).toUpperCase()}`;
  const sender = async () => {
    while (running) {
      const trackingNumber = `${prefix}${String(sequence++).padStart(6, '0')}`;
      const started = Date.now();
      try {
        const response = await fetch(`${options.baseUrl()}/version-test/api/1.1/wf/package`, {
          method: 'POST',
          headers: { authorization: `Token ${options.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(options.body(trackingNumber)),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await response.text();
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          code = 'not_json';
        }
        outcomes.push({ trackingNumber, status: response.status, code, ms: Date.now() - started, at: started });
      } catch {
        // Connection refused or reset: the server is down. Counted as "no answer", never as accepted.
        outcomes.push({ trackingNumber, status: 0, ms: Date.now() - started, at: started });
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const senders = Array.from({ length: options.clients ?? 4 }, sender);
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(senders);
    },
  };
}
