import 'server-only';
import pg from 'pg';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';
import { queryRows, type Sql } from '@/lib/sql';

// The planner underestimates a big filter's rows and would sort every remaining row for each batch of a keyset export;
// with sorting off it takes the ordered index scan (a statement with no ordered path still sorts). Off for the session of
// a pool of its own, so a batch is one round trip, not BEGIN, SET and COMMIT each waiting on an event loop busy sending.
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

export async function closeIndexOrderPool(): Promise<void> {
  const pool = globalForPool.indexOrderPool;
  globalForPool.indexOrderPool = undefined;
  await pool?.end().catch(() => undefined);
}
