import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDatabase, removeEmbeddedDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';
import { packageStream, freePort, seedAccount, startApiServer, type ServerProcess } from '../support/processes';
import { packageSample } from '../support/samples';
import { WebhookReceiver, waitFor } from '../support/webhook-receiver';

// PostgreSQL stopped for 10 s under load (four clients sending packages, the in-app webhook worker
// running): the server writes fewer than 50 lines in all (stdout and stderr) from the stop until
// 12 s after the restart, which covers the "repeated N times" lines that report the outage. Once it
// wrote 781 error lines with full stacks. Repeated errors are logged once per interval with a count
// (lib/log-repeats.ts). LOG_LEVEL=warn, as in production logging without per-request lines; this
// test runs a PostgreSQL of its own, since it stops it.

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
let server: ServerProcess | undefined;
let database: { url: string; stop: () => Promise<void> } | undefined;
let dataDir: string | undefined;
const receiver = new WebhookReceiver();

afterAll(async () => {
  await server?.kill();
  await receiver.stop();
  await database?.stop();
  if (dataDir) await removeEmbeddedDatabase(dataDir); // also where a start as root placed it
});

describe('database outage, logging', () => {
  it('logs fewer than 50 lines during a 10 s PostgreSQL stop under load, without stacks', async () => {
    const port = await freePort();
    dataDir = `.data/outage-log-${process.pid}-${Date.now()}`;
    database = await ensureDatabase({ dataDir, port, embedded: true });
    const url = database.url;
    await migrateDeploy(url);
    await seedRateCards(url);
    await receiver.start();
    receiver.on('/hook', SECRET);
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    // The close-out timer runs every second, so it surely runs into the outage too (it once logged a stack there).
    server = await startApiServer(url, { LOG_LEVEL: 'warn', WEBHOOK_POLL_MS: undefined, CLOSE_OUT_INTERVAL_MS: '1000' });
    const stream = packageStream({ baseUrl: () => server!.baseUrl, token, body: (tn) => packageSample(tn) });
    await waitFor(() => stream.outcomes.filter((o) => o.status === 200).length >= 20, {
      timeoutMs: 60_000,
      what: '20 packages accepted',
    });

    const stoppedAt = Date.now();
    await database.stop();
    await new Promise((r) => setTimeout(r, 10_000));
    database = await ensureDatabase({ dataDir, port, embedded: true });
    const restartedAt = Date.now();
    await new Promise((r) => setTimeout(r, 6_000));
    await stream.stop();
    await new Promise((r) => setTimeout(r, restartedAt + 12_000 - Date.now()));

    if (server.child.exitCode !== null)
      throw new Error(`the server died (${server.child.exitCode}):\n${server.output().slice(-6000)}`);
    const during = server.lines.filter((l) => l.at >= stoppedAt && l.at <= restartedAt + 12_000);
    const requests = stream.outcomes.filter((o) => o.at >= stoppedAt && o.at < restartedAt);
    const byMessage = new Map<string, number>();
    for (const line of during) {
      let key = line.text.slice(0, 80);
      try {
        const parsed = JSON.parse(line.text) as { msg?: string };
        key = (parsed.msg ?? key).replace(/\d+ times/, 'N times');
      } catch {
        // not JSON: counted under its first 80 characters
      }
      byMessage.set(key, (byMessage.get(key) ?? 0) + 1);
    }
    console.log(
      `[reliability] PostgreSQL stopped 10 s under load (${requests.length} requests answered meanwhile): ${during.length} log lines ` +
        `from the stop to 12 s after the restart (limit 50): ${JSON.stringify(Object.fromEntries(byMessage))}`,
    );
    const before = server.lines.filter((l) => l.at < stoppedAt && l.text.includes('"level"'));
    if (before.length > 0)
      console.log(`[reliability] logged before the stop: ${before.map((l) => l.text.slice(0, 300)).join('\n')}`);
    expect(requests.length).toBeGreaterThan(20); // the load went on: every one of them could have logged
    expect(during.length).toBeLessThan(50);
    expect(during.filter((l) => /\n?\s+at .+:\d+:\d+/.test(l.text) || l.text.includes('"stack"'))).toEqual([]);
    // It still recovered: requests after the restart succeed.
    const after = stream.outcomes.filter((o) => o.at > restartedAt + 5_000);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.status === 200)).toBe(true);
    expect(server.unexpected).toEqual([]);
  }, 120_000);
});
