import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { packageSample } from '../support/samples';
import {
  dropFreshDatabase,
  freshDatabase,
  packageStream,
  seedAccount,
  startApiServer,
  type ServerProcess,
} from '../support/processes';
import { WebhookReceiver, waitFor } from '../support/webhook-receiver';

// An accepted package (a 200) is stored exactly once and notified at least once, whatever happens
// to the server that accepted it, and however many servers share the database.

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const servers: ServerProcess[] = [];
const databases: string[] = [];
let receiver: WebhookReceiver;

beforeEach(() => {
  receiver = new WebhookReceiver();
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGKILL')));
  await receiver.stop();
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

/** tracking number -> the webhook-ids of every delivery that announced it. */
function deliveries(): Map<string, Set<string>> {
  const byNumber = new Map<string, Set<string>>();
  for (const request of receiver.at('/hook')) {
    for (const tn of (JSON.parse(request.body) as { tracking_numbers: string[] }).tracking_numbers) {
      const ids = byNumber.get(tn) ?? new Set<string>();
      ids.add(String(request.headers['webhook-id']));
      byNumber.set(tn, ids);
    }
  }
  return byNumber;
}

describe('crash', () => {
  it('loses nothing accepted when the server is killed with SIGKILL under load and restarted', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'crash');
    databases.push(url);
    await receiver.start();
    receiver.on('/hook', SECRET);
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    let current = await startApiServer(url);
    servers.push(current);
    const stream = packageStream({ baseUrl: () => current.baseUrl, token, clients: 6, body: (tn) => packageSample(tn) });

    const acceptedCount = () => stream.outcomes.filter((o) => o.status === 200).length;
    // Counts, not sleeps, so a busy machine only makes the test slower.
    await waitFor(() => acceptedCount() >= 40, { timeoutMs: 60_000, what: '40 packages accepted' });
    await current.kill('SIGKILL');
    const beforeRestart = acceptedCount();
    current = await startApiServer(url);
    servers.push(current);
    await waitFor(() => acceptedCount() >= beforeRestart + 40, {
      timeoutMs: 60_000,
      what: '40 more packages accepted after the restart',
    });
    await stream.stop();

    const accepted = stream.outcomes.filter((o) => o.status === 200).map((o) => o.trackingNumber);
    expect(accepted.length).toBeGreaterThanOrEqual(80);
    expect(stream.outcomes.some((o) => o.status === 0)).toBe(true); // the kill was felt
    const stored = await storedCounts(url, accepted);
    const lost = accepted.filter((tn) => stored.get(tn) !== 1);
    expect(lost).toEqual([]);

    await waitFor(() => accepted.every((tn) => deliveries().has(tn)), {
      timeoutMs: 30_000,
      what: 'a notification for every accepted package',
    });
    const byNumber = deliveries();
    // A delivery repeated after the crash carries the same webhook-id as the first attempt.
    expect(accepted.filter((tn) => byNumber.get(tn)!.size !== 1)).toEqual([]);
    expect(receiver.at('/hook').every((r) => r.verifyError === null)).toBe(true);
  }, 120_000);
});

describe('scale-out', () => {
  it('gives two instances on one database the same counts and notifications as one', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'scale');
    databases.push(url);
    await receiver.start();
    receiver.on('/hook', SECRET);
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    const [a, b] = await Promise.all([startApiServer(url), startApiServer(url)]);
    servers.push(a, b);
    let turn = 0;
    const stream = packageStream({
      baseUrl: () => (turn++ % 2 === 0 ? a : b).baseUrl,
      token,
      clients: 6,
      body: (tn) => packageSample(tn),
    });
    await waitFor(() => stream.outcomes.filter((o) => o.status === 200).length >= 150, {
      timeoutMs: 60_000,
      what: '150 packages accepted',
    });
    await stream.stop();

    // The same packages again, each to the other instance: safe retries, nothing new.
    const accepted = stream.outcomes.filter((o) => o.status === 200).map((o) => o.trackingNumber);
    expect(accepted.length).toBeGreaterThanOrEqual(150);
    expect(stream.outcomes.every((o) => o.status === 200)).toBe(true);
    const retries = await Promise.all(
      accepted.slice(0, 50).map(async (tn, i) => {
        const response = await fetch(`${(i % 2 === 0 ? b : a).baseUrl}/version-test/api/1.1/wf/package`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(packageSample(tn)),
        });
        return response.status;
      }),
    );
    expect(retries.every((status) => status === 200)).toBe(true);

    const stored = await storedCounts(url, accepted);
    expect(accepted.filter((tn) => stored.get(tn) !== 1)).toEqual([]);
    await waitFor(() => deliveries().size >= accepted.length, { timeoutMs: 30_000, what: 'every notification' });
    await new Promise((r) => setTimeout(r, 1_000)); // room for any duplicate to show up
    const byNumber = deliveries();
    expect(accepted.filter((tn) => byNumber.get(tn)?.size !== 1)).toEqual([]);
    // One delivery per package, none sent twice at once by the two workers.
    expect(receiver.at('/hook').length).toBe(accepted.length);
    expect(receiver.concurrentDuplicates).toEqual([]);
  }, 120_000);
});
