import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { db, pgPool } from '@/lib/db';
import { newId } from '@/lib/ids';
import { call, expectError, newAccount, tracking } from './support/api';
import { packageSample } from './support/samples';

// The sharded counters (lib/sharded-counters.ts): a daily manifest's counts and weights by status, and the day's
// activity, kept by the writes in shards. Each check compares what the API answers with a count of the stored rows
// themselves (a GROUP BY over the packages), so a lost or doubled increment shows.

let ops: string;
beforeAll(async () => {
  ops = (await createOpsToken({ name: 'counters tests' })).token;
});

const GET = { method: 'GET' } as const;
const DAY = '2026-12-07';

/** Varied weights and units, so that a weight counted in the wrong status or twice changes the total. */
function weighed(number: string, i: number) {
  const body = packageSample(number, DAY);
  body.package.PackageWeight = 0.25 + (i % 17) * 1.75;
  body.package.WeightUnit = i % 2 === 0 ? 'kg' : 'lb';
  return body;
}

/** What the counters must equal: the manifest's packages counted and weighed by status, from the rows. */
async function counted(manifestId: string) {
  const { rows } = await pgPool().query<{ status: string; n: number; weight: string | null }>(
    `SELECT status, count(*)::int AS n, sum(package_weight_lb(data->>'PackageWeight', data->>'WeightUnit'))::text AS weight
     FROM packages WHERE daily_manifest_id = $1 GROUP BY status`,
    [manifestId],
  );
  const by_status: Record<string, number> = {};
  let weight = 0;
  for (const row of rows) {
    by_status[row.status] = row.n;
    weight += row.weight === null ? 0 : Number(row.weight);
  }
  return { package_count: rows.reduce((n, r) => n + r.n, 0), by_status, total_weight_lb: weight.toFixed(2) };
}

async function totals(token: string, manifestId: string) {
  const manifest = await call(`/manifests/${manifestId}`, { ...GET, token });
  expect(manifest.status, manifest.text).toBe(200);
  return manifest.json.totals as { package_count: number; by_status: Record<string, number>; total_weight_lb: string };
}

function scan(fields: Record<string, unknown>) {
  return { scan_id: `scan-${randomUUID()}`, location: 'JFK', occurred_at: new Date().toISOString(), ...fields };
}

describe('sharded counters', () => {
  it("200 packages sent at once into one day: counts, weights, list and the day's rollup are exact, retries and conflicts add nothing", async () => {
    const shipper = await newAccount('Concurrent');
    const numbers = Array.from({ length: 200 }, () => tracking('CC'));
    // With the 200, at the same moment: identical resends of 10 of them and changed resends of 5 others.
    const changed = numbers.slice(20, 25).map((n, i) => {
      const body = weighed(n, i + 20);
      body.package.ToName = 'Someone Else';
      return body;
    });
    const answers = await Promise.all([
      ...numbers.map((n, i) => call('/wf/package', { token: shipper.tokens.test, body: weighed(n, i) })),
      ...numbers.slice(0, 10).map((n, i) => call('/wf/package', { token: shipper.tokens.test, body: weighed(n, i) })),
      ...changed.map((body) => call('/wf/package', { token: shipper.tokens.test, body })),
    ]);
    // A changed resend (of numbers 20-24) either lost the race to its original (409) or won it, and then its
    // original got the 409: of each such pair exactly one is stored. Every other first send is a 200.
    const changedOutcomes = answers.slice(210).map((a) => a.status);
    const firsts = answers.slice(0, 200);
    expect(firsts.map((a, i) => (i >= 20 && i < 25 && changedOutcomes[i - 20] === 200 ? 'lost' : a.status))).toEqual(
      numbers.map((_, i) => (i >= 20 && i < 25 && changedOutcomes[i - 20] === 200 ? 'lost' : 200)),
    );
    expect(answers.slice(200, 210).map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const [i, status] of changedOutcomes.entries()) {
      const [winner, loser] = status === 200 ? [answers[210 + i], firsts[20 + i]] : [firsts[20 + i], answers[210 + i]];
      expect(winner?.status).toBe(200);
      expectError(loser, 409, 'conflict');
    }
    const manifestIds = new Set(answers.filter((a) => a.status === 200).map((a) => a.json.ManifestID as string));
    expect(manifestIds.size).toBe(1);
    const [manifestId] = [...manifestIds] as [string];

    const expected = await counted(manifestId);
    expect(expected.package_count).toBe(200);
    expect(await totals(shipper.tokens.test, manifestId)).toEqual({ ...expected, by_status: { manifested: 200 } });
    const detail = await call(`/manifests/${manifestId}`, { ...GET, token: shipper.tokens.test });
    expect(detail.json.PackageCount).toBe(200);
    const list = await call('/manifests?type=daily', { ...GET, token: shipper.tokens.test });
    expect(list.json.data.map((m: { ManifestID: string; PackageCount: number }) => [m.ManifestID, m.PackageCount])).toEqual([
      [manifestId, 200],
    ]);

    // The dashboard's rollup for today: 200, spread over more than one shard (else the hot row is back).
    const { rows } = await pgPool().query<{ shard: number; packages: number }>(
      `SELECT shard, packages FROM activity_days WHERE account_id = $1::uuid AND environment = 'test' AND day = (now() AT TIME ZONE 'UTC')::date`,
      [shipper.accountId],
    );
    expect(rows.reduce((n, r) => n + r.packages, 0)).toBe(200);
    expect(rows.length).toBeGreaterThan(1);
    const shards = await pgPool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM daily_manifest_counts WHERE manifest_id = $1`,
      [manifestId],
    );
    expect(shards.rows[0].n).toBeGreaterThan(1);
  });

  it('cancels, scans, the simulator and a manifest cancel move counts and weights between statuses exactly; refusals move nothing', async () => {
    const shipper = await newAccount('Moves');
    const token = shipper.tokens.test;
    const numbers = Array.from({ length: 12 }, () => tracking('MV'));
    for (const [i, n] of numbers.entries()) {
      const answer = await call('/wf/package', { token, body: weighed(n, i) });
      expect(answer.status, answer.text).toBe(200);
    }
    const manifestId = (await call(`/packages/${numbers[0]}`, { ...GET, token })).json.ManifestID as string;
    const before = await totals(token, manifestId);
    expect(before).toEqual(await counted(manifestId));
    expect(before.by_status).toEqual({ manifested: 12 });

    // Three cancelled (one twice: a safe retry), four received by scan, two of those on to in_transit.
    for (const n of [numbers[0], numbers[1], numbers[2], numbers[2]])
      expect((await call(`/packages/${n}/cancel`, { token })).status).toBe(200);
    const received = await call('/ops/scans', {
      token: ops,
      body: { scans: numbers.slice(3, 7).map((n) => scan({ tracking_number: n, event: 'received' })) },
    });
    expect(received.json.results.map((r: { result: string }) => r.result)).toEqual(['applied', 'applied', 'applied', 'applied']);
    const onward = await call('/ops/scans', {
      token: ops,
      body: { scans: numbers.slice(3, 5).map((n) => scan({ tracking_number: n, event: 'in_transit' })) },
    });
    expect(onward.json.results.map((r: { result: string }) => r.result)).toEqual(['applied', 'applied']);
    // Refused: cancelling a received package, delivering a cancelled one.
    expectError(await call(`/packages/${numbers[5]}/cancel`, { token }), 409, 'not_cancellable');
    const illegal = await call('/ops/scans', {
      token: ops,
      body: { scans: [scan({ tracking_number: numbers[0], event: 'delivered' })] },
    });
    expect(illegal.json.results[0].result).toBe('refused');
    // The simulator walks one package through every state to delivered.
    expect((await call(`/packages/${numbers[7]}/simulate`, { token, body: { status: 'delivered' } })).status).toBe(200);

    const moved = await totals(token, manifestId);
    expect(moved).toEqual(await counted(manifestId));
    expect(moved.by_status).toEqual({ manifested: 4, cancelled: 3, received: 2, in_transit: 2, delivered: 1 });
    expect(moved.total_weight_lb).toBe(before.total_weight_lb);

    // A cancel racing a scan of the same package: whichever wins, the counts follow the rows.
    const [cancel, raced] = await Promise.all([
      call(`/packages/${numbers[8]}/cancel`, { token }),
      call('/ops/scans', { token: ops, body: { scans: [scan({ tracking_number: numbers[8], event: 'received' })] } }),
    ]);
    expect((cancel.status === 200) !== (raced.json.results[0].result === 'applied')).toBe(true);
    expect(await totals(token, manifestId)).toEqual(await counted(manifestId));

    // The daily manifest's cancel takes every still-manifested package.
    const cancelled = await call(`/manifests/${manifestId}/cancel`, { token });
    expect(cancelled.status, cancelled.text).toBe(200);
    const after = await totals(token, manifestId);
    expect(after).toEqual(await counted(manifestId));
    expect(after.by_status.manifested).toBeUndefined();
    expect(after.package_count).toBe(12);
    expect(Object.values(after.by_status).reduce((n, c) => n + c, 0)).toBe(12);
    expect(after.total_weight_lb).toBe(before.total_weight_lb);
    expect(cancelled.json.totals).toEqual(after);
  });

  it("a package with a webhook subscribed wakes another process's delivery worker after its commit (not the trigger, in the transaction)", async () => {
    const shipper = await newAccount('Wake');
    // The notify is for workers of other processes (the server's own is woken directly), sent while one beats: this
    // test's listener stands for one, so a worker row of a process that is not the server's beats meanwhile.
    const elsewhere = `elsewhere:1:${randomUUID()}:0`;
    await pgPool().query(`INSERT INTO webhook_workers (id) VALUES ($1)`, [elsewhere]);
    // Past the server's recheck of who else is listening (at most a second).
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const endpoint = await db.webhookEndpoint.create({
      data: {
        id: newId('we'),
        accountId: shipper.accountId,
        environment: 'test',
        url: 'http://127.0.0.1:9/hook',
        events: ['package.sorting'],
        secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
      },
    });
    const listener = await pgPool().connect();
    try {
      await listener.query('LISTEN webhook_messages');
      // What a woken worker finds: the delivery, committed. The channel carries no payload and other files' packages
      // wake it too, so a wake-up that finds none of this endpoint's messages is someone else's: wait for the next.
      const woke = new Promise<number>((resolve) => {
        listener.on('notification', () => {
          void pgPool()
            .query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_messages WHERE endpoint_id = $1`, [endpoint.id])
            .then((r) => {
              const n = r.rows[0]?.n ?? 0;
              if (n > 0) resolve(n);
            });
        });
      });
      const answer = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking('WK'), DAY) });
      expect(answer.status, answer.text).toBe(200);
      const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('no wake-up within 5 s'), 5_000));
      expect(await Promise.race([woke, timeout])).toBe(1);
    } finally {
      await listener.query('UNLISTEN *');
      listener.removeAllListeners('notification');
      listener.release();
      await pgPool().query(`DELETE FROM webhook_workers WHERE id = $1`, [elsewhere]);
    }
  });
});
