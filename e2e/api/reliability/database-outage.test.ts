import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDatabase, removeEmbeddedDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';
import { packageSample } from '../support/samples';
import { freePort, packageStream, seedAccount, startApiServer, type ServerProcess } from '../support/processes';
import { WebhookReceiver, waitFor } from '../support/webhook-receiver';

// PostgreSQL stopped for 10 s under load: requests get 503 in the envelope (no hang, no stack
// trace), the service recovers by itself within 5 s of the database returning, and nothing that
// was accepted is lost — neither the package nor its notification. This test runs a PostgreSQL of
// its own, since it stops it.

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
let server: ServerProcess | undefined;
let database: { url: string; stop: () => Promise<void> } | undefined;
const receiver = new WebhookReceiver();

let dataDir: string | undefined;

afterAll(async () => {
  await server?.kill();
  await receiver.stop();
  await database?.stop();
  if (dataDir) await removeEmbeddedDatabase(dataDir); // also where a start as root placed it
});

describe('database outage', () => {
  it('answers 503 while PostgreSQL is down, recovers within 5 s of its return, and loses nothing accepted', async () => {
    const port = await freePort();
    dataDir = `.data/outage-${process.pid}-${Date.now()}`;
    database = await ensureDatabase({ dataDir, port, embedded: true });
    const url = database.url;
    await migrateDeploy(url);
    await seedRateCards(url);
    await receiver.start();
    receiver.on('/hook', SECRET);
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    server = await startApiServer(url);
    const stream = packageStream({ baseUrl: () => server!.baseUrl, token, body: (tn) => packageSample(tn) });

    await waitFor(() => stream.outcomes.filter((o) => o.status === 200).length >= 20, {
      timeoutMs: 60_000,
      what: '20 packages accepted',
    });
    const stoppedAt = Date.now();
    await database.stop();
    await new Promise((r) => setTimeout(r, 10_000));
    const restarting = Date.now();
    database = await ensureDatabase({ dataDir, port, embedded: true });
    const restartedAt = Date.now();
    await new Promise((r) => setTimeout(r, 6_000));
    await stream.stop();

    if (server.child.exitCode !== null)
      throw new Error(`the server died (${server.child.exitCode}):\n${server.output().slice(-6000)}`);
    const during = stream.outcomes.filter((o) => o.at > stoppedAt + 500 && o.at + o.ms < restarting);
    expect(during.length).toBeGreaterThan(0);
    // While it is down: 503 in the envelope, each within the 5 s connection timeout and a margin.
    expect(new Set(during.map((o) => `${o.status} ${o.code}`))).toEqual(new Set(['503 service_unavailable']));
    expect(Math.max(...during.map((o) => o.ms))).toBeLessThan(8_000);
    // Nothing ever a 500.
    const failures = stream.outcomes.filter((o) => o.status >= 500 && o.status !== 503);
    expect(server.unexpected).toEqual([]);
    expect(failures).toEqual([]);
    // Recovered within 5 s: from then on every request is accepted.
    const firstOk = stream.outcomes.filter((o) => o.at >= restartedAt && o.status === 200).sort((a, b) => a.at - b.at)[0];
    expect(firstOk).toBeDefined();
    expect(firstOk.at + firstOk.ms - restartedAt).toBeLessThan(5_000);
    const after = stream.outcomes.filter((o) => o.at > firstOk.at);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.status === 200)).toBe(true);

    // Every accepted package is stored exactly once and notified.
    const accepted = stream.outcomes.filter((o) => o.status === 200).map((o) => o.trackingNumber);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const stored = await client.query<{ tracking_number: string; n: number }>(
        'SELECT tracking_number, count(*)::int AS n FROM packages WHERE tracking_number = ANY($1) GROUP BY tracking_number',
        [accepted],
      );
      expect(stored.rows.length).toBe(accepted.length);
      expect(stored.rows.every((row) => row.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
    const notified = () =>
      new Set(receiver.at('/hook').flatMap((r) => (JSON.parse(r.body) as { tracking_numbers: string[] }).tracking_numbers));
    try {
      await waitFor(() => accepted.every((tn) => notified().has(tn)), {
        timeoutMs: 30_000,
        what: 'every accepted package to be notified',
      });
    } catch (error) {
      // Say where the missing ones are: never queued, queued, claimed (until when), or given up.
      const missing = accepted.filter((tn) => !notified().has(tn));
      const diagnose = new pg.Client({ connectionString: url });
      await diagnose.connect();
      const rows = await diagnose
        .query(
          `SELECT ev.payload->'tracking_numbers'->>0 AS tn, m.status, m.attempt_count, m.locked_by, m.locked_until, m.next_attempt_at, now() AS now
           FROM webhook_events ev LEFT JOIN webhook_messages m ON m.event_id = ev.id
           WHERE ev.payload->'tracking_numbers'->>0 = ANY($1)`,
          [missing],
        )
        .finally(() => diagnose.end());
      throw new Error(
        `${(error as Error).message}: ${missing.length} of ${accepted.length} missing; ${JSON.stringify(rows.rows.slice(0, 10))}\n${server.output().slice(-3000)}`,
      );
    }
    expect(receiver.at('/hook').every((r) => r.verifyError === null)).toBe(true);
  }, 120_000);
});
