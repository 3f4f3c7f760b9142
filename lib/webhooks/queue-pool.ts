import 'server-only';
import pg from 'pg';
import { env } from '@/lib/env';
import { queryRows, type Sql } from '@/lib/sql';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';

// The worker's own pool, apart from the request pool: otherwise a burst of packages would delay every delivery
// and a delivery backlog would take connections from requests (docs/decisions/data-access.md).

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

export async function queueQuery<Row>(statement: Sql<Row>): Promise<Row[]> {
  return queryRows(queuePool(), statement);
}

let beatClient: Promise<pg.Client> | undefined;
let onBeatConnectionLost: (() => void) | undefined;

/** Called synchronously when the heartbeat connection is lost: the worker must take itself for dead at once. */
export function onHeartbeatConnectionLost(callback: () => void): void {
  onBeatConnectionLost = callback;
}

/**
 * On a connection of its own: a heartbeat queued behind claims would make a busy live worker look dead, and its
 * backend is the worker's sign of life, so it must be one connection.
 */
export async function heartbeatQuery<Row>(statement: Sql<Row>): Promise<Row[]> {
  beatClient ??= (async () => {
    // query_timeout: a heartbeat stuck on a half-dead connection must fail (and reconnect), not hang the beats.
    const client = new pg.Client({ connectionString: env().DATABASE_URL, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
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
    // An SQL error keeps the connection (and its backend); anything else drops it.
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

/** For GET /metrics; undefined while not open. */
export function queuePoolCounts(): { totalCount: number; idleCount: number; waitingCount: number } | undefined {
  return pool && { totalCount: pool.totalCount, idleCount: pool.idleCount, waitingCount: pool.waitingCount };
}
