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

export async function closeQueuePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.end();
}
