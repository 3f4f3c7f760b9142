import 'server-only';
import pg from 'pg';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';

// The delivery worker's own small connection pool, apart from the Prisma client's (lib/db.ts). When
// the worker runs inside the app, the API's package transactions and the worker's claims and
// outcome writes would otherwise queue for the same connections, and a burst of packages would
// delay every delivery behind it. Its statements are plain SQL on the queue tables, so plain `pg`
// (as lib/cache/invalidation.ts uses) is enough and costs less per statement.

let pool: pg.Pool | undefined;

function queuePool(): pg.Pool {
  if (!pool) {
    const config = env();
    pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      max: config.WEBHOOK_DB_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
    });
    // An idle connection that breaks (database restart) is dropped by the pool; the next query reconnects.
    pool.on('error', (error) => logRepeated(log, 'warn', 'webhook queue connection lost', error));
  }
  return pool;
}

/** A parameterised statement on the queue pool: sql`... ${value} ...` sends each value as $n. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  strings: TemplateStringsArray,
  ...values: unknown[]
): Promise<T[]> {
  const text = strings.reduce((out, part, i) => `${out}$${i}${part}`);
  const result = await queuePool().query<T>(text, values);
  return result.rows;
}

let beatClient: Promise<pg.Client> | undefined;
let onBeatConnectionLost: (() => void) | undefined;

/**
 * Called (synchronously) whenever the heartbeat connection is lost or dropped: the worker must then take
 * itself for dead at once (its backend is gone, so others free its claims), before anything else runs.
 */
export function onHeartbeatConnectionLost(callback: () => void): void {
  onBeatConnectionLost = callback;
}

/**
 * Like sql``, on a connection of its own that nothing else queues on: the worker's heartbeat must not
 * wait behind a burst of claims and outcome writes, or a busy live worker would be taken for dead.
 * A connection that fails is dropped; the next call opens another.
 */
export async function heartbeatSql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  strings: TemplateStringsArray,
  ...values: unknown[]
): Promise<T[]> {
  const text = strings.reduce((out, part, i) => `${out}$${i}${part}`);
  beatClient ??= (async () => {
    // query_timeout: a heartbeat stuck on a half-dead connection must fail (and reconnect), not hang the beats.
    const client = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
    // Its next query then fails, and the catch below drops it.
    client.on('error', (error) => {
      onBeatConnectionLost?.();
      logRepeated(log, 'warn', 'webhook heartbeat connection lost', error, {}, { anyError: true });
    });
    client.on('end', () => onBeatConnectionLost?.());
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    }
    return client;
  })();
  const current = beatClient;
  try {
    const client = await current;
    const result = await client.query<T>(text, values);
    return result.rows;
  } catch (error) {
    // An SQL error (it has a SQLSTATE, e.g. a lock timeout) leaves the connection, and its backend, as
    // they were; anything else (connection refused or broken, our query timeout) drops it.
    const sqlState = (error as { code?: unknown }).code;
    const connectionKept = typeof sqlState === 'string' && /^[0-9A-Z]{5}$/.test(sqlState) && !/^(08|57P)/.test(sqlState);
    if (beatClient === current && !connectionKept) {
      beatClient = undefined;
      onBeatConnectionLost?.();
      current.then((client) => client.end(), () => undefined).catch(() => undefined);
    }
    throw error;
  }
}

export async function closeQueuePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  const beat = beatClient;
  beatClient = undefined;
  await beat?.then((client) => client.end(), () => undefined).catch(() => undefined);
  await closing?.end();
}

/** The queue pool's use, for GET /metrics (db_pool_connections{pool="webhook"}); undefined while it is not open. */
export function queuePoolCounts(): { totalCount: number; idleCount: number; waitingCount: number } | undefined {
  return pool && { totalCount: pool.totalCount, idleCount: pool.idleCount, waitingCount: pool.waitingCount };
}
