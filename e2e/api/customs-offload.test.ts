import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { call, expectError, newAccount, tracking, type Env, type TestAccount } from './support/api';
import { euContainerSample, packageSample } from './support/samples';

// POST /packages/{TrackingNumber}/offload: a house held by customs taken out of its container before departure, so
// the rest departs: the hold, the readiness and the enforcement before a live departure leave it out; its timeline,
// its webhook event and an audit record say so; after departure, or for a house not held, 409 not_offloadable.

const GET = { method: 'GET' } as const;
const POST = { method: 'POST' } as const;

let ops: string;
let acme: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  ops = (await createOpsToken({ name: 'customs offload' })).token;
  [acme, other] = await Promise.all([newAccount('Offload'), newAccount('Offload other')]); // Webhook events are stored for a subscribed endpoint only: one, never reached (a documentation address).
  const endpoint = await call('/webhooks', {
    token: acme.tokens.test,
    body: { url: 'https://93.184.215.14/package-offloaded', events: ['package.offloaded'] },
  });
  expect(endpoint.status, endpoint.text).toBe(201);
});

/** JFK → FRA to Berlin, three houses; `gapAt` lacks the consignee's name (not ready for ICS2). */
function euContainer(gapAt?: number) {
  const numbers = [0, 1, 2].map(() => tracking('OFF'));
  return {
    numbers,
    body: euContainerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers, (_tn, i) => (i === gapAt ? { ToName: '' } : {})),
  };
}

async function accept(account: TestAccount, env: Env, gapAt?: number) {
  const { numbers, body } = euContainer(gapAt);
  const accepted = await call('/wf/manifest', { env, token: account.tokens[env], body });
  expect(accepted.status, accepted.text).toBe(200);
  return { numbers, containerId: body.ContainerID, manifestId: accepted.json.ManifestID as string };
}

const offload = (identifier: string, account = acme, env: Env = 'test') =>
  call(`/packages/${encodeURIComponent(identifier)}/offload`, { ...POST, env, token: account.tokens[env] });
const read = async (path: string, env: Env = 'test') => (await call(path, { ...GET, env, token: acme.tokens[env] })).json;

async function holdOnTestPath(n: string) {
  const held = await call(`/packages/${n}/simulate`, { ...POST, token: acme.tokens.test, body: { customs: 'do_not_load' } });
  expect(held.status, held.text).toBe(200);
}

async function audits(target: string) {
  const { rows } = await pgPool().query<{ action: string; details: Record<string, unknown> }>(
    `SELECT action, details FROM audit_events WHERE account_id = $1 AND target_id = $2 AND action = 'package.offloaded' ORDER BY id`,
    [acme.accountId, target],
  );
  return rows;
}

describe('POST /packages/{TrackingNumber}/offload', () => {
  it('offloads a house on do_not_load so the rest departs; the house stays, its timeline and event say so', async () => {
    const { numbers, manifestId } = await accept(acme, 'test');
    const [a, b, c] = numbers as [string, string, string];
    await holdOnTestPath(b);
    const held = await call(`/manifests/${manifestId}/simulate`, {
      ...POST,
      token: acme.tokens.test,
      body: { status: 'departed' },
    });
    expectError(held, 409, 'do_not_load');

    const answer = await offload(b);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({
      TrackingNumber: b,
      status: 'manifested',
      customs_status: 'do_not_load',
      offloaded_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const events = (await read(`/packages/${b}/events`)).data as { type: string }[];
    expect(events.filter((e) => e.type === 'package.offloaded')).toHaveLength(1);
    const webhookEvents = (await read('/events?type=package.offloaded')).data as { data: Record<string, unknown> }[];
    expect(webhookEvents.find((e) => e.data.tracking_number === b)?.data).toMatchObject({
      tracking_number: b,
      manifest_id: manifestId,
      house_waybill: answer.json.house_waybill,
      customs_status: 'do_not_load',
      status: 'manifested',
    });
    expect(await audits(b)).toHaveLength(1);

    // Readiness counts the houses aboard; the hold is gone with the house.
    const readiness = await read(`/manifests/${manifestId}/customs`);
    expect(readiness).toMatchObject({ package_count: 2, do_not_load: [] });

    // A retry answers the same package and records nothing more.
    const again = await offload(b);
    expect(again.status, again.text).toBe(200);
    expect(again.json.offloaded_at).toBe(answer.json.offloaded_at);
    expect(
      (await read(`/packages/${b}/events`)).data.filter((e: { type: string }) => e.type === 'package.offloaded'),
    ).toHaveLength(1);
    expect(await audits(b)).toHaveLength(1);

    const departed = await call(`/manifests/${manifestId}/simulate`, {
      ...POST,
      token: acme.tokens.test,
      body: { status: 'departed' },
    });
    expect(departed.status, departed.text).toBe(200);
    expect((await read(`/packages/${a}`)).status).toBe('in_transit');
    expect((await read(`/packages/${c}`)).status).toBe('in_transit');
    // The offloaded house stayed on the ground, where it was.
    expect((await read(`/packages/${b}`)).status).toBe('manifested');

    // After departure: refused, naming the container's status; the offloaded one still answers as offloaded.
    const late = expectError(await offload(a), 409, 'not_offloadable');
    expect(late.message).toMatch(/departed/);
    expect((await offload(a)).json.error.current_status).toBe('departed');
    expect((await offload(b)).status).toBe(200);
  });

  it('refuses a house not held, a daily package, a cancelled house, and answers the unknown and the foreign as not found', async () => {
    const { numbers } = await accept(acme, 'test');
    const notHeld = await offload(numbers[0]);
    expectError(notHeld, 409, 'not_offloadable');
    expect(notHeld.json.error.current_status).toBe('none');
    expect(notHeld.json.error.message).toMatch(/not held by customs/);
    // Released: not held either.
    await call(`/packages/${numbers[1]}/simulate`, { ...POST, token: acme.tokens.test, body: { customs: 'released' } });
    expect((await offload(numbers[1])).json.error).toMatchObject({ code: 'not_offloadable', current_status: 'released' });

    const n = tracking('OFD');
    expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(n) })).status).toBe(200);
    expect((await offload(n)).json.error).toMatchObject({ code: 'not_offloadable', current_status: 'daily' });

    const cancelled = await accept(acme, 'test');
    await holdOnTestPath(cancelled.numbers[0]);
    expect((await call(`/packages/${cancelled.numbers[0]}/cancel`, { ...POST, token: acme.tokens.test })).status).toBe(200);
    expect((await offload(cancelled.numbers[0])).json.error).toMatchObject({
      code: 'not_offloadable',
      current_status: 'cancelled',
    });

    // Held, but asked for by another account, or in the other environment.
    await holdOnTestPath(numbers[2]);
    expectError(await offload(numbers[2], other), 404, 'not_found');
    expectError(await offload(numbers[2], acme, 'live'), 404, 'not_found');
    expectError(await offload('NO-SUCH-PACKAGE'), 404, 'not_found');
    for (const hostile of ['%00', 'x'.repeat(5_000), '\u{1F4E6}', "' OR 1=1 --"]) {
      const answer = await call(`/packages/${encodeURIComponent(hostile)}/offload`, { ...POST, token: acme.tokens.test });
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
    }
    // Nothing of that offloaded it.
    expect((await read(`/packages/${numbers[2]}`)).offloaded_at).toBeUndefined();
  });

  it('offloads once under concurrent requests', async () => {
    const { numbers } = await accept(acme, 'test');
    await holdOnTestPath(numbers[0]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => offload(numbers[0])));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(new Set(answers.map((a) => a.json.offloaded_at)).size).toBe(1);
    expect(
      (await read(`/packages/${numbers[0]}/events`)).data.filter((e: { type: string }) => e.type === 'package.offloaded'),
    ).toHaveLength(1);
    expect(await audits(numbers[0])).toHaveLength(1);
  });

  it('lets a live container that enforces readiness depart once its held, not-ready house is offloaded', async () => {
    await pgPool().query(
      `INSERT INTO customs_settings (account_id, enforce_readiness) VALUES ($1, true)
       ON CONFLICT (account_id) DO UPDATE SET enforce_readiness = true`,
      [acme.accountId],
    );
    try {
      // House 1 lacks the consignee's name (not ready for ICS2) and customs holds it.
      const { numbers, containerId, manifestId } = await accept(acme, 'live', 1);
      const scan = (body: Record<string, unknown>, minutes: number) => ({
        scan_id: `s-${randomUUID()}`,
        location: 'JFK',
        occurred_at: new Date(Date.now() - 60 * 60_000 + minutes * 60_000).toISOString(),
        ...body,
      });
      const first = await call('/ops/scans', {
        env: 'live',
        token: ops,
        body: {
          scans: [
            scan({ container_id: containerId, event: 'received' }, 0),
            scan({ tracking_number: numbers[1], event: 'do_not_load', customs_text: 'Referral' }, 1),
          ],
        },
      });
      expect(
        first.json.results.map((r: { result: string }) => r.result),
        first.text,
      ).toEqual(['applied', 'applied']);
      const refused = await call('/ops/scans', {
        env: 'live',
        token: ops,
        body: { scans: [scan({ container_id: containerId, event: 'departed' }, 2)] },
      });
      expect(refused.json.results[0]).toMatchObject({ result: 'refused', error: { code: 'do_not_load' } });

      const answer = await offload(numbers[1], acme, 'live');
      expect(answer.status, answer.text).toBe(200);
      // Readiness without the offloaded house: ready for ICS2, so enforcement lets the container go.
      const readiness = await read(`/manifests/${manifestId}/customs`, 'live');
      expect(readiness.regimes.find((r: { regime: string }) => r.regime === 'eu_ics2_placi')).toMatchObject({ ready: true });
      const departed = await call('/ops/scans', {
        env: 'live',
        token: ops,
        body: { scans: [scan({ container_id: containerId, event: 'departed' }, 3)] },
      });
      expect(departed.json.results[0], departed.text).toMatchObject({ result: 'applied', status: 'departed' });
      expect((await read(`/packages/${numbers[0]}`, 'live')).status).toBe('in_transit');
      expect((await read(`/packages/${numbers[1]}`, 'live')).status).toBe('received');
    } finally {
      await pgPool().query(`UPDATE customs_settings SET enforce_readiness = false WHERE account_id = $1`, [acme.accountId]);
    }
  });
});

describe('cancelling a container with an offloaded house', () => {
  beforeAll(async () => {
    const endpoint = await call('/webhooks', {
      token: acme.tokens.test,
      body: { url: 'https://93.184.215.14/package-cancelled', events: ['package.cancelled'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
  });

  /** The package.cancelled events stored for `n` (an endpoint subscribed to them in the test). */
  async function cancelledEvents(n: string) {
    const events = (await read('/events?type=package.cancelled&limit=100')).data as { data: Record<string, unknown> }[];
    return events.filter((e) => e.data.tracking_number === n);
  }

  it('cancels the house with its container, once, with its package.cancelled event; the filter leaves it out', async () => {
    // House b lacks the consignee's name: not ready for ICS2 until offloaded.
    const { numbers, manifestId } = await accept(acme, 'test', 1);
    const [a, b, c] = numbers as [string, string, string];
    const notReady = async () =>
      (await read(`/packages?manifest_id=${manifestId}&customs_not_ready=eu_ics2_placi`)).data.map(
        (p: { TrackingNumber: string }) => p.TrackingNumber,
      );
    expect(await notReady()).toEqual([b]);
    await holdOnTestPath(b);
    expect((await offload(b)).status).toBe(200);
    // Offloaded, it is not aboard: its container's filings, and the filter, leave it out.
    expect(await notReady()).toEqual([]);

    // Another account's token, or the other environment, finds no such container and cancels nothing.
    expectError(await call(`/manifests/${manifestId}/cancel`, { ...POST, token: other.tokens.test }), 404, 'not_found');
    expectError(
      await call(`/manifests/${manifestId}/cancel`, { ...POST, env: 'live', token: acme.tokens.live }),
      404,
      'not_found',
    );
    expect((await read(`/packages/${b}`)).status).toBe('manifested');

    const cancelled = await call(`/manifests/${manifestId}/cancel`, { ...POST, token: acme.tokens.test });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.status).toBe('cancelled');
    for (const n of [a, c]) expect((await read(`/packages/${n}`)).status).toBe('cancelled');
    // Still offloaded and still on its customs outcome: only its lifecycle followed the container.
    expect(await read(`/packages/${b}`)).toMatchObject({
      status: 'cancelled',
      customs_status: 'do_not_load',
      offloaded_at: expect.stringMatching(/^\d{4}-/),
    });
    expect(await cancelledEvents(b)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ tracking_number: b, status: 'cancelled' }) }),
    ]);

    // Cancelled again: 200, and nothing more is recorded.
    const again = await call(`/manifests/${manifestId}/cancel`, { ...POST, token: acme.tokens.test });
    expect(again.status, again.text).toBe(200);
    expect(await cancelledEvents(b)).toHaveLength(1);
    const { rows } = await pgPool().query(
      `SELECT 1 FROM audit_events WHERE account_id = $1 AND target_id = $2 AND action = 'manifest.cancelled'`,
      [acme.accountId, manifestId],
    );
    expect(rows).toHaveLength(1);
  });

  it('cancels once under concurrent requests, and a container cancelled before its house followed takes it along', async () => {
    const { numbers, manifestId } = await accept(acme, 'test');
    await holdOnTestPath(numbers[0]);
    expect((await offload(numbers[0])).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(`/manifests/${manifestId}/cancel`, { ...POST, token: acme.tokens.test })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect((await read(`/packages/${numbers[0]}`)).status).toBe('cancelled');
    expect(await cancelledEvents(numbers[0])).toHaveLength(1);

    // A container cancelled before this rule left its offloaded house manifested: cancelling it again finishes the job.
    const earlier = await accept(acme, 'test');
    await holdOnTestPath(earlier.numbers[2]);
    expect((await offload(earlier.numbers[2])).status).toBe(200);
    expect((await call(`/manifests/${earlier.manifestId}/cancel`, { ...POST, token: acme.tokens.test })).status).toBe(200);
    await pgPool().query(`UPDATE container_packages SET status = 'manifested' WHERE tracking_number = $1`, [earlier.numbers[2]]);
    const healed = await call(`/manifests/${earlier.manifestId}/cancel`, { ...POST, token: acme.tokens.test });
    expect(healed.status, healed.text).toBe(200);
    expect((await read(`/packages/${earlier.numbers[2]}`)).status).toBe('cancelled');
  });
});
