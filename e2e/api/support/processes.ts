import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { generateToken } from '@/lib/auth/tokens';
import { createDatabase, databaseUrl, dropDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';
import { freePort, portalPids, startApp, workerPids, type AppProcess } from './spawn';

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
    const account = await client.query<{ id: string }>(
      'INSERT INTO accounts (id, name) VALUES (gen_random_uuid(), $1) RETURNING id',
      [`Reliability ${randomUUID()}`],
    );
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

export interface ServerProcess extends AppProcess {
  /** Stops the whole app (SIGTERM: gracefully; SIGKILL: the supervisor and its workers at once). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** The pids of the supervisor's worker processes right now. */
  workerPids(): number[];
  /** The portal's process (server/portal.ts): none until the first worker is ready, then one. */
  portalPids(): number[];
}

/** Settings of the reliability suite's servers: fast retries and polls, limits lifted. */
export const RELIABILITY_ENV: Record<string, string> = {
  LOG_LEVEL: 'warn',
  API_RATE_LIMIT_PER_SECOND: '100000',
  API_RATE_LIMIT_BURST: '100000',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: '100,200,400,800,1600,3200,6400',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '3000',
  // Long enough that a busy machine does not let a lease lapse mid-attempt (a duplicate), short
  // enough that a killed worker's claims come back within the test.
  WEBHOOK_LEASE_MS: '8000',
};

/**
 * Starts the app as `npm start` does (supervisor, APP_WORKERS workers, each with its webhook
 * worker) on a database, and waits until it answers. One worker unless `env` says otherwise; an
 * `undefined` value in `env` removes the variable (the production default).
 */
export async function startApiServer(url: string, env: Record<string, string | undefined> = {}): Promise<ServerProcess> {
  const app = await startApp({ name: 'app server', env: { DATABASE_URL: url, APP_WORKERS: '1', ...RELIABILITY_ENV, ...env } });
  return {
    ...app,
    workerPids: () => workerPids(app.pid),
    portalPids: () => portalPids(app.pid),
    kill: async (signal = 'SIGTERM') => {
      if (signal === 'SIGKILL') {
        // A crash of the whole machine's worth of processes: the supervisor and its workers at once
        // (a worker whose supervisor is gone would stop by itself, but gracefully).
        const workers = [...workerPids(app.pid), ...portalPids(app.pid)];
        await app.stop('SIGKILL');
        for (const pid of workers) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
        return;
      }
      await app.stop(signal);
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
export function packageStream(options: {
  baseUrl: () => string;
  token: string;
  clients?: number;
  body: (trackingNumber: string) => unknown;
}) {
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
