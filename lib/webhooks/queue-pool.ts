import 'server-only';
import pg from 'pg';
import { env } from '@/lib/env';
import { queryRows, type Sql } from '@/lib/sql';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';

// The delivery worker's own small connection pool, apart from the request pool (lib/db.ts pgPool(),
// which Prisma and the API's hot paths share). When the worker runs inside the app, the API's package
// transactions and the worker's claims and outcome writes would otherwise queue for the same
// connections, and a burst of packages would delay every delivery behind it (and a delivery backlog
// would take connections from requests). One pool per kind of work: docs/decisions/data-access.md.
// Its statements are the one SQL helper's (lib/sql.ts) on the queue tables.

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

/** The rows of a sql`` statement (lib/sql.ts), run on the queue pool. */
export async function queueQuery<Row>(statement: Sql<Row>): Promise<Row[]> {
  return queryRows(queuePool(), statement);
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
 * Like queueQuery(), on a connection of its own that nothing else queues on: the worker's heartbeat must
 * not wait behind a burst of claims and outcome writes, or a busy live worker would be taken for dead;
 * and its backend is the worker's sign of life (claim-messages.ts, heartbeat()), so it must be one
 * connection, not any of a pool's. A connection that fails is dropped; the next call opens another.
 */
export async function heartbeatQuery<Row>(statement: Sql<Row>): Promise<Row[]> {
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
    return await queryRows(client, statement);
  } catch (error) {
    // An SQL error (it has a SQLSTATE, e.g. a lock timeout) leaves the connection, and its backend, as
    // they were; anything else (connection refused or broken, our query timeout) drops it.
    const sqlState = (error as { code?: unknown }).code;
    const connectionKept = typeof sqlState === 'string' && /^[0-9A-Z]{5}$/.test(sqlState) && !/^(08|57P)/.test(sqlState);
    if (beatClient === current && !connectionKept) {
      beatClient = undefined;
      onBeatConnectionLost?.();
      current
        .then(
          (client) => client.end(),
          () => undefined,
        )
        .catch(() => undefined);
    }
    throw error;
  }
}

export async function closeQueuePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  const beat = beatClient;
  beatClient = undefined;
  await beat
    ?.then(
      (client) => client.end(),
      () => undefined,
    )
    .catch(() => undefined);
  await closing?.end();
}

/** The queue pool's use, for GET /metrics (db_pool_connections{pool="webhook"}); undefined while it is not open. */
export function queuePoolCounts(): { totalCount: number; idleCount: number; waitingCount: number } | undefined {
  return pool && { totalCount: pool.totalCount, idleCount: pool.idleCount, waitingCount: pool.waitingCount };
}
