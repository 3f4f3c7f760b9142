import 'server-only';
import pg from 'pg';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { queryRows, type Sql } from '@/lib/sql';

/**
 * One batch of a keyset export (`… WHERE key > $after ORDER BY key LIMIT n`, n in the thousands), read in the order
 * of the index that serves its filter. The planner estimates a manifest's or a filter's rows from the table's
 * statistics (a few hundred to a few thousand), so for a big set it would rather collect every remaining row and
 * sort them, for each batch: 340 ms a batch at 100,000 packages, an export slowing as it went (bench/RESULTS.md,
 * 10 M packages). With sorting off the ordered index scan is chosen and each batch costs its own rows (7 ms); a
 * statement with no ordered path still sorts.
 *
 * Sorting is off for the whole session of a small pool of its own (`-c enable_sort=off` at connect), so a batch is
 * one round trip. It was `SET LOCAL` in a transaction of its own on the app's pool: BEGIN, SET and COMMIT are three
 * more round trips, and each waits for the event loop, which is busy writing the previous batch, so the next
 * batch's SELECT only left once that was done and PostgreSQL and Node took turns instead of working side by side
 * (30 % of an export's time idle). A connection is held only while a batch is read, never across a slow download;
 * EXPORT_POOL_SIZE bounds how many batches of all exports run at once.
 */
export function queryRowsInIndexOrder<Row>(statement: Sql<Row>): Promise<Row[]> {
  return queryRows(indexOrderPool(), statement);
}

const EXPORT_POOL_SIZE = 4;
const globalForPool = globalThis as unknown as { indexOrderPool?: pg.Pool };

function indexOrderPool(): pg.Pool {
  if (!globalForPool.indexOrderPool) {
    const pool = new pg.Pool({
      connectionString: env().DATABASE_URL,
      max: EXPORT_POOL_SIZE,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: 5_000,
      options: '-c enable_sort=off',
      application_name: 'carrier exports',
    });
    // As lib/db.ts's pool: a connection that breaks, idle or checked out, must not crash the process.
    pool.on('error', (error) => logRepeated(log, 'warn', 'idle database connection lost', error));
    pool.on('connect', (connection) => {
      connection.on('error', (error) => logRepeated(log, 'warn', 'database connection lost', error));
    });
    globalForPool.indexOrderPool = pool;
  }
  return globalForPool.indexOrderPool;
}

/** Closes the exports' pool, if it was opened (the server's stop). */
export async function closeIndexOrderPool(): Promise<void> {
  const pool = globalForPool.indexOrderPool;
  globalForPool.indexOrderPool = undefined;
  await pool?.end().catch(() => undefined);
}
