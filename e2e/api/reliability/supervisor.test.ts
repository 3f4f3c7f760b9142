import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { packageSample, rateSampleAll } from '../support/samples';
import {
  dropFreshDatabase,
  freshDatabase,
  packageStream,
  seedAccount,
  startApiServer,
  type ServerProcess,
} from '../support/processes';
import { WebhookReceiver, waitFor } from '../support/webhook-receiver';

// `npm start` runs the app in supervised worker processes (server/start.ts): a worker that dies
// (a bug we have not found yet, the kernel's OOM killer) costs its own requests in flight, not the
// service. The other workers keep answering, the dead one is replaced, nothing accepted is lost.

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const servers: ServerProcess[] = [];
const databases: string[] = [];
const receivers: WebhookReceiver[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGKILL')));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  await Promise.all(databases.splice(0).map(dropFreshDatabase));
});

async function storedCounts(url: string, trackingNumbers: string[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ tracking_number: string; n: number }>(
      'SELECT tracking_number, count(*)::int AS n FROM packages WHERE tracking_number = ANY($1) GROUP BY tracking_number',
      [trackingNumbers],
    );
    return new Map(result.rows.map((row) => [row.tracking_number, row.n]));
  } finally {
    await client.end();
  }
}

/** Waits until the supervisor's worker pids differ from `before` and number `count`; returns them. */
async function replaced(server: ServerProcess, before: number[], count: number, timeoutMs = 60_000): Promise<number[]> {
  return waitFor(
    () => {
      const now = server.workerPids();
      return now.length === count && now.some((pid) => !before.includes(pid)) && now;
    },
    { timeoutMs, what: `a new worker beside ${before.join(', ')}` },
  );
}

describe('supervised workers', () => {
  it('keeps answering and loses nothing accepted when one of two workers is killed with SIGKILL under load', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'workers');
    databases.push(url);
    const receiver = new WebhookReceiver();
    receivers.push(receiver);
    await receiver.start();
    receiver.on('/hook', SECRET);
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    // LOG_LEVEL=info: the supervisor's lines say when each worker listens.
    const server = await startApiServer(url, { APP_WORKERS: '2', LOG_LEVEL: 'info' });
    servers.push(server);
    const listening = () => server.supervisor.filter((line) => line.includes('"msg":"worker listening"')).length;
    // Both workers up (the first to listen makes the app answer; the second may still be starting).
    await waitFor(() => listening() === 2, { timeoutMs: 60_000, what: 'both workers listening' });
    const workers = server.workerPids();
    expect(workers).toHaveLength(2);

    const stream = packageStream({ baseUrl: () => server.baseUrl, token, clients: 8, body: (tn) => packageSample(tn) });
    const accepted = () => stream.outcomes.filter((o) => o.status === 200);
    await waitFor(() => accepted().length >= 60, { timeoutMs: 60_000, what: '60 packages accepted' });

    const victim = workers[0];
    process.kill(victim, 'SIGKILL');
    const killedAt = Date.now();
    // The other worker answers on: accepted packages that started after the kill, within seconds,
    // while the dead one is still being replaced.
    await waitFor(() => accepted().filter((o) => o.at > killedAt).length >= 20, {
      timeoutMs: 30_000,
      what: '20 packages accepted after the kill',
    });
    const firstAfter = Math.min(
      ...accepted()
        .filter((o) => o.at > killedAt)
        .map((o) => o.at + o.ms),
    );
    expect(firstAfter - killedAt).toBeLessThan(3_000);
    // The supervisor replaces it, and the new one serves too.
    const now = await replaced(server, workers, 2);
    expect(now).toContain(workers[1]);
    expect(now).not.toContain(victim);
    await waitFor(() => listening() === 3, { timeoutMs: 60_000, what: 'the new worker listening' });
    expect(server.supervisor.filter((line) => line.includes('"msg":"worker died; starting another"'))).toHaveLength(1);
    const afterReplacement = accepted().length;
    await waitFor(() => accepted().length >= afterReplacement + 40, { timeoutMs: 60_000, what: '40 more packages accepted' });
    await stream.stop();

    // What the kill cost: at most the dead worker's requests in flight (no answer: status 0), never a 5xx.
    const outcomes = stream.outcomes;
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    expect(server.unexpected).toEqual([]);
    const noAnswer = outcomes.filter((o) => o.status === 0);
    expect(noAnswer.length).toBeLessThanOrEqual(8); // one per client at most: each had one request in flight
    expect(outcomes.filter((o) => o.status !== 200 && o.status !== 0)).toEqual([]);
    expect(server.running()).toBe(true);

    // Every accepted package stored exactly once; every one notified (the dead worker's claims come back).
    const acceptedNumbers = accepted().map((o) => o.trackingNumber);
    const stored = await storedCounts(url, acceptedNumbers);
    expect(acceptedNumbers.filter((tn) => stored.get(tn) !== 1)).toEqual([]);
    const notified = () =>
      new Set(receiver.at('/hook').flatMap((r) => (JSON.parse(r.body) as { tracking_numbers: string[] }).tracking_numbers));
    await waitFor(() => acceptedNumbers.every((tn) => notified().has(tn)), {
      timeoutMs: 45_000,
      what: 'a notification for every accepted package',
    });
    expect(receiver.at('/hook').every((r) => r.verifyError === null)).toBe(true);
  }, 240_000);

  it('restarts a worker that keeps dying with a growing back-off, so a crash loop does not spin', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'backoff');
    databases.push(url);
    const server = await startApiServer(url, { APP_WORKERS: '1', WEBHOOK_WORKER: 'off' });
    servers.push(server);
    let workers = server.workerPids();
    expect(workers).toHaveLength(1);
    // Kill each new worker as soon as it appears: every death after the first is "fast" (under 10 s of life).
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      process.kill(workers[0], 'SIGKILL');
      const killedAt = Date.now();
      workers = await replaced(server, workers, 1);
      delays.push(Date.now() - killedAt);
    }
    const backoffs = server.supervisor
      .filter((line) => line.includes('"msg":"worker died; starting another"'))
      .map((line) => (JSON.parse(line) as { restartInMs: number }).restartInMs);
    expect(backoffs).toHaveLength(5);
    // The first worker may have lived past 10 s (then it restarts at once); from then on 500 ms, 1 s, 2 s, ...
    const expected = backoffs[0] === 0 ? [0, 500, 1_000, 2_000, 4_000] : [500, 1_000, 2_000, 4_000, 8_000];
    expect(backoffs).toEqual(expected);
    // And the supervisor really waited that long each time.
    delays.forEach((delay, i) => expect(delay).toBeGreaterThanOrEqual(expected[i] - 50));
    // And the last one serves.
    await waitFor(
      () =>
        fetch(`${server.baseUrl}/version-test/api/1.1/wf/rate`, { method: 'OPTIONS' }).then(
          (r) => r.status === 204,
          () => false,
        ),
      { timeoutMs: 60_000, what: 'the app answering again' },
    );
    expect(server.running()).toBe(true);
  }, 120_000);

  it('replaces a portal process that dies: the API answers throughout, portal requests wait for the new one', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'portal');
    databases.push(url);
    const server = await startApiServer(url, { APP_WORKERS: '1', WEBHOOK_WORKER: 'off', LOG_LEVEL: 'info' });
    servers.push(server);
    const [portal] = await waitFor(() => server.portalPids().length === 1 && server.portalPids(), {
      timeoutMs: 60_000,
      what: 'the portal process',
    });
    const signIn = () => fetch(`${server.baseUrl}/sign-in`).then((r) => r.status);
    expect(await signIn()).toBe(200);

    process.kill(portal, 'SIGKILL');
    // A page asked for at once is held until the new portal listens, then served.
    const heldPage = signIn();
    const { token } = await seedAccount(url);
    const quotes: number[] = [];
    const quoting = (async () => {
      for (let i = 0; i < 40; i += 1) {
        const answer = await fetch(`${server.baseUrl}/version-test/api/1.1/wf/rate`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(rateSampleAll()),
        });
        quotes.push(answer.status);
        await answer.arrayBuffer();
      }
    })();
    expect(await heldPage).toBe(200);
    await quoting;
    expect(quotes.every((status) => status === 200)).toBe(true);
    const [next] = server.portalPids();
    expect(next).toBeDefined();
    expect(next).not.toBe(portal);
    expect(server.supervisor.some((line) => line.includes('"msg":"portal died; starting another"'))).toBe(true);
    expect(server.workerPids()).toHaveLength(1); // the API worker was not touched
  }, 120_000);
});
