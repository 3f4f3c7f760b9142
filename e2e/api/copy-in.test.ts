import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { copyIn, sql } from '@/lib/sql';

// copyIn (lib/sql.ts) when PostgreSQL goes away in the middle of a COPY, as in a database outage under load: the
// promise rejects and nothing is thrown outside it. Through stream.pipeline, the COPY stream's destroy sent CopyFail
// on a connection its own error handler had already dropped, a TypeError from a callback that killed the request
// log's thread (database-outage-log.test.ts).

const clients: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
});

/** `listening: false` is a pool's checked-out client: pg-pool takes its own 'error' listener off while it is lent. */
async function connect(listening = true): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  if (listening) client.on('error', () => undefined);
  await client.connect();
  clients.push(client);
  return client;
}

it('a COPY whose backend is terminated mid-stream rejects, and throws nothing outside its promise', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    for (let round = 0; round < 5; round++) {
      const client = await connect(false);
      const killer = await connect();
      await client.query('CREATE TEMP TABLE copy_cut (v text)');
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      // About 16 MB: the socket is still being written when the backend goes.
      const text = `${'x'.repeat(800)}\n`.repeat(20_000);
      // Its outcome is taken at once (a rejection while the kill is in flight is not an unhandled one).
      const copying = copyIn(client, sql`COPY copy_cut (v) FROM STDIN`, text).then(
        () => null,
        (error: unknown) => error,
      );
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await copying).toBeInstanceOf(Error);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    process.off('uncaughtException', onUncaught);
  }
  expect(uncaught).toEqual([]);
});
