import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { connectRidingOut, isDatabaseUnavailable, noteDatabaseError } from '@/lib/db-errors';
import { RecentWriters } from '@/lib/read-your-writes';
import { Gauge } from 'prom-client';

// Created on first use (`next build` imports routes without a database); on globalThis so dev reloads reuse it.
const globalForDb = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool };

class RideOutPool extends pg.Pool {
  connect(): Promise<pg.PoolClient>;
  connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    const connecting = connectRidingOut(() => super.connect());
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }
}

/** The pool under the Prisma client; the hottest writes run SQL on it directly, so its size still bounds the process. */
export function pgPool(): pg.Pool {
  if (!globalForDb.pgPool) {
    const { DATABASE_URL, DATABASE_POOL_SIZE } = env();
    globalForDb.pgPool = new RideOutPool({
      connectionString: DATABASE_URL,
      max: DATABASE_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
    });
    // An idle connection that breaks (a database restart) must not crash the process; the pool replaces it.
    globalForDb.pgPool.on('error', (error) => {
      noteDatabaseError(error);
      logRepeated(log, 'warn', 'idle database connection lost', error);
    });
    // The pool listens only on idle connections: one that breaks while Prisma holds it would crash the process with an
    // unhandled 'error'. Its next query fails instead, and the pool discards it on release.
    globalForDb.pgPool.on('connect', (connection) => {
      connection.on('error', (error) => {
        noteDatabaseError(error);
        logRepeated(log, 'warn', 'database connection lost', error);
      });
    });
    replicaPool(); // with the primary's, so that its lag is in /metrics from the start
  }
  return globalForDb.pgPool;
}

/** COMMIT if `work` resolves, ROLLBACK if it throws; a connection that failed meanwhile is discarded, not reused. */
export async function pgTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pgPool().connect();
  let broken = false;
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(onError);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

// --- Reads that may lag: DATABASE_REPLICA_URL ----------------------------------------------------------

const replica = globalThis as unknown as { replicaPool?: pg.Pool | null; recentWriters?: RecentWriters };

/** A streaming replica's pool, or null without DATABASE_REPLICA_URL. A replica that cannot be reached hands its work to the primary. */
function replicaPool(): pg.Pool | null {
  if (replica.replicaPool !== undefined) return replica.replicaPool;
  const { DATABASE_REPLICA_URL, DATABASE_POOL_SIZE } = env();
  if (!DATABASE_REPLICA_URL) return (replica.replicaPool = null);
  const pool = new ReplicaPool({
    connectionString: DATABASE_REPLICA_URL,
    max: DATABASE_POOL_SIZE,
    connectionTimeoutMillis: 2_000,
  });
  pool.on('error', (error) => logRepeated(log, 'warn', 'idle replica connection lost', error));
  pool.on('connect', (connection) => {
    connection.on('error', (error) => logRepeated(log, 'warn', 'replica connection lost', error));
  });
  replica.replicaPool = pool;
  trackReplicaLag(pool);
  return pool;
}

class ReplicaPool extends pg.Pool {
  connect(): Promise<pg.PoolClient>;
  connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  connect(
    callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    const connecting = super.connect().catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) throw error;
      logRepeated(log, 'warn', 'replica unreachable; reading from the primary', error);
      return pgPool().connect();
    });
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined)),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }
}

function recentWriters(): RecentWriters {
  replica.recentWriters ??= new RecentWriters();
  return replica.recentWriters;
}

/** The account wrote: its lag-tolerant reads go to the primary for a few seconds (lib/read-your-writes.ts). */
export function noteAccountWrite(accountId: string): void {
  if (replicaPool()) recentWriters().noteWrite(accountId);
}

/** The replica for reads that may lag (the dashboard), unless there is none or the account has just written. */
export function lagTolerantPool(accountId: string): pg.Pool {
  const pool = replicaPool();
  return pool && !recentWriters().wroteRecently(accountId) ? pool : pgPool();
}

/** db_replica_lag_seconds, read at each scrape. */
function trackReplicaLag(pool: pg.Pool): void {
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'Replay lag of the replica this process reads from (0 when it has replayed all it received); absent when it cannot be read.',
    aggregator: 'max',
    async collect() {
      this.reset();
      try {
        const { rows } = await pool.query<{ lag: number | null }>({
          text: `SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                 ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::float8 AS lag`,
          query_timeout: 1_000,
        } as pg.QueryConfig);
        if (rows[0]?.lag !== null && rows[0]?.lag !== undefined) this.set(rows[0].lag);
      } catch {
        // unreadable: the series is absent rather than wrong
      }
    },
  });
}

function client(): PrismaClient {
  globalForDb.prisma ??= new PrismaClient({ adapter: new PrismaPg(pgPool()) });
  return globalForDb.prisma;
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const value: unknown = Reflect.get(client(), property);
    if (typeof value !== 'function') return value;
    const bound: unknown = value.bind(client());
    return bound;
  },
});

export { Prisma } from '@/lib/generated/prisma/client';
export type { Environment } from '@/lib/generated/prisma/client';

/**
 * Holds a lock named `key` until the Prisma transaction `tx` ends: concurrent transactions that take the same key run
 * one after another, so a count they check (a cap) sees every row the others committed.
 */
export async function lockForTransaction(tx: Pick<PrismaClient, '$executeRaw'>, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}
