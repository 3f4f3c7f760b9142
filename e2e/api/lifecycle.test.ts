import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { PACKAGE_TRANSITIONS, type PackageStatus } from '@/lib/status/transitions';
import { call, expectError, newAccount, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// The lifecycle end to end on the real server: reads, lists, cancel, the simulator, carrier scans, their history
// and their outbox rows. Each test makes its own account (the per-token rate limit is low here).

let ops: string;
beforeAll(async () => {
  ops = (await createOpsToken({ name: 'lifecycle tests' })).token;
});

const GET = { method: 'GET' } as const;

async function container(account: TestAccount, numbers: string[], env: 'test' | 'live' = 'test') {
  const containerId = `ULD-${randomUUID().slice(0, 8)}`;
  const result = await call('/wf/manifest', { env, token: account.tokens[env], body: containerSample(containerId, numbers) });
  expect(result.status, result.text).toBe(200);
  return { manifestId: result.json.ManifestID as string, containerId };
}

async function dailyPackage(account: TestAccount, number: string, env: 'test' | 'live' = 'test') {
  const body = packageSample(number);
  const result = await call('/wf/package', { env, token: account.tokens[env], body });
  expect(result.status, result.text).toBe(200);
  return result.json.ManifestID as string;
}

function scan(fields: Record<string, unknown>) {
  return { scan_id: `scan-${randomUUID()}`, location: 'JFK', occurred_at: new Date().toISOString(), ...fields };
}

async function scans(list: unknown[], env: 'test' | 'live' = 'test') {
  return call('/ops/scans', { env, token: ops, body: { scans: list } });
}

describe('reads', () => {
  it('reads back a container package and a daily package under the contract names, with status', async () => {
    const account = await newAccount();
    const [a, b] = [tracking('RA'), tracking('RB')];
    const { manifestId, containerId } = await container(account, [a]);
    const dailyId = await dailyPackage(account, b);

    const pkg = await call(`/packages/${a}`, { ...GET, token: account.tokens.test });
    expect(pkg.status, pkg.text).toBe(200);
    expect(pkg.json).toMatchObject({
      object: 'package',
      TrackingNumber: a,
      ManifestID: manifestId,
      ContainerID: containerId,
      ServiceName: 'AirSkip',
      manifest_type: 'container',
      status: 'manifested',
      PackageWeightUnit: 'lb',
    });
    const daily = await call(`/packages/${b}`, { ...GET, token: account.tokens.test });
    expect(daily.json).toMatchObject({
      object: 'package',
      TrackingNumber: b,
      ManifestID: dailyId,
      manifest_type: 'daily',
      status: 'manifested',
      ServiceName: 'AirSkip',
    });

    const manifest = await call(`/manifests/${manifestId}`, { ...GET, token: account.tokens.test });
    expect(manifest.json).toMatchObject({
      object: 'manifest',
      ManifestID: manifestId,
      type: 'container',
      ContainerID: containerId,
      PackageCount: 1,
      status: 'manifested',
    });
    expect(manifest.json.totals).toEqual({ package_count: 1, by_status: { manifested: 1 }, total_weight_lb: '2.50' });

    const list = await call('/packages', { ...GET, token: account.tokens.test });
    expect(list.json.object).toBe('list');
    expect(list.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber)).toEqual([b, a]);
    expect(list.json.has_more).toBe(false);
    expect(list.json.next_cursor).toBeNull();

    const manifests = await call('/manifests', { ...GET, token: account.tokens.test });
    expect(manifests.json.data.map((m: { ManifestID: string }) => m.ManifestID)).toEqual([dailyId, manifestId]);
    // The other environment sees none of it.
    expectError(await call(`/packages/${a}`, { ...GET, env: 'live', token: account.tokens.live }), 404, 'not_found');
    expectError(await call(`/manifests/${manifestId}`, { ...GET, env: 'live', token: account.tokens.live }), 404, 'not_found');
  });

  it('pages with a cursor that stays stable while rows are inserted, and filters', async () => {
    const account = await newAccount();
    const numbers = Array.from({ length: 5 }, () => tracking('PG'));
    await container(account, numbers.slice(0, 3));
    for (const n of numbers.slice(3)) await dailyPackage(account, n);
    const first = await call('/packages?limit=2', { ...GET, token: account.tokens.test });
    expect(first.json.data).toHaveLength(2);
    expect(first.json.has_more).toBe(true);
    // Inserted between pages: appears on no later page, and moves nothing.
    await dailyPackage(account, tracking('NEW'));
    const seen = first.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber);
    let cursor = first.json.next_cursor;
    while (cursor) {
      const next = await call(`/packages?limit=2&cursor=${cursor}`, { ...GET, token: account.tokens.test });
      expect(next.status, next.text).toBe(200);
      seen.push(...next.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber));
      cursor = next.json.next_cursor;
    }
    expect(seen).toEqual([numbers[4], numbers[3], numbers[2], numbers[1], numbers[0]]);

    const prefix = numbers[0].slice(0, 12).toLowerCase();
    const byPrefix = await call(`/packages?tracking_number=${prefix}`, { ...GET, token: account.tokens.test });
    expect(byPrefix.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber)).toEqual([numbers[0]]);
    const byStatus = await call('/packages?status=cancelled', { ...GET, token: account.tokens.test });
    expect(byStatus.json.data).toEqual([]);
    const containersOnly = await call('/manifests?type=container', { ...GET, token: account.tokens.test });
    expect(containersOnly.status, containersOnly.text).toBe(200);
    expect(containersOnly.json.data).toHaveLength(1);
  });

  it('refuses bad list input with a 4xx envelope naming the field', async () => {
    const account = await newAccount();
    const token = account.tokens.test;
    for (const [path, field] of [
      ['/packages?limit=0', 'limit'],
      ['/packages?limit=101', 'limit'],
      ['/packages?limit=99999999999999999999', 'limit'],
      ['/packages?cursor=abc', 'cursor'],
      ['/packages?cursor=WzEsMiwzXQ', 'cursor'],
      [`/packages?cursor=${Buffer.from(JSON.stringify(['0000-01-01T00:00:00.000Z', 0, '1'])).toString('base64url')}`, 'cursor'],
      [`/packages?cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 0, 'x'])).toString('base64url')}`, 'cursor'],
      ['/packages?from=0000-01-01', 'from'],
      ['/packages?to=2026-02-30', 'to'],
      ['/packages?status=lost', 'status'],
      ['/manifests?type=box', 'type'],
      ['/manifests?q=%00', 'q'],
      ['/packages?nope=1', 'nope'],
    ] as const) {
      const error = expectError(await call(path, { ...GET, token }), 422, 'validation_failed');
      expect(error.details?.[0]?.path, path).toBe(field);
    }
    expectError(await call('/packages/%ZZ', { ...GET, token }), 404, 'not_found');
    expectError(await call('/packages/a%00b/events', { ...GET, token }), 404, 'not_found');
  });
});

describe('cancel', () => {
  it('cancels a package, again as a safe retry, and never reuses its tracking number', async () => {
    const account = await newAccount();
    const n = tracking('CX');
    await dailyPackage(account, n);
    const first = await call(`/packages/${n}/cancel`, { token: account.tokens.test });
    expect(first.status, first.text).toBe(200);
    expect(first.json.status).toBe('cancelled');
    const again = await call(`/packages/${n}/cancel`, { token: account.tokens.test });
    expect(again.status).toBe(200);
    expect(again.json.status_updated_at).toBe(first.json.status_updated_at);
    const reuse = await call('/wf/package', {
      token: account.tokens.test,
      body: { package: { ...packageSample(n).package, ShipmentDescription: 'other' } },
    });
    expect(reuse.status).toBe(409);
    const events = await call(`/packages/${n}/events`, { ...GET, token: account.tokens.test });
    expect(events.json.data.map((e: { type: string; source: string }) => [e.type, e.source])).toEqual([
      ['package.cancelled', 'cancel'],
    ]);
  });

  it('refuses to cancel once the carrier has the package (409 not_cancellable naming the status)', async () => {
    const account = await newAccount();
    const n = tracking('CY');
    await dailyPackage(account, n);
    const scanned = await scans([scan({ tracking_number: n, event: 'received' })]);
    expect(scanned.json.results[0].result).toBe('applied');
    const refused = expectError(await call(`/packages/${n}/cancel`, { token: account.tokens.test }), 409, 'not_cancellable');
    expect(refused).toMatchObject({ current_status: 'received' });
  });

  it("cancels a container with all its packages, and a daily manifest's still-manifested packages", async () => {
    const account = await newAccount();
    const [a, b] = [tracking('KA'), tracking('KB')];
    const { manifestId } = await container(account, [a, b]);
    const cancelled = await call(`/manifests/${manifestId}/cancel`, { token: account.tokens.test });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json).toMatchObject({ status: 'cancelled', totals: { by_status: { cancelled: 2 } } });

    const [c, d] = [tracking('DA'), tracking('DB')];
    const dailyId = await dailyPackage(account, c);
    await dailyPackage(account, d);
    await scans([scan({ tracking_number: d, event: 'received' })]);
    const partial = await call(`/manifests/${dailyId}/cancel`, { token: account.tokens.test });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.json.status).toBe('manifested');
    expect(partial.json.totals.by_status).toEqual({ cancelled: 1, received: 1 });
    expectError(await call(`/manifests/${dailyId}/cancel`, { token: account.tokens.test }), 409, 'not_cancellable');
  });

  it('a cancel racing the first scan has exactly one winner', async () => {
    const account = await newAccount();
    for (let round = 0; round < 5; round++) {
      const n = tracking('RC');
      await dailyPackage(account, n);
      const [cancel, scanned] = await Promise.all([
        call(`/packages/${n}/cancel`, { token: account.tokens.test }),
        scans([scan({ tracking_number: n, event: 'received' })]),
      ]);
      const scanWon = scanned.json.results[0].result === 'applied';
      const cancelWon = cancel.status === 200;
      expect(scanWon !== cancelWon, `${cancel.text} ${scanned.text}`).toBe(true);
      if (!cancelWon) expectError(cancel, 409, 'not_cancellable');
      if (!scanWon)
        expect(scanned.json.results[0].error).toMatchObject({ code: 'illegal_transition', current_status: 'cancelled' });
    }
  });
});

describe('ops scans', () => {
  it('applies, records out-of-order, refuses illegal and answers duplicates, each on its own', async () => {
    const account = await newAccount();
    const [a, b] = [tracking('SA'), tracking('SB')];
    const { containerId } = await container(account, [a, b]);
    const t = (minutes: number) => new Date(Date.now() - 60 * 60_000 + minutes * 60_000).toISOString();
    const received = scan({ container_id: containerId, event: 'received', occurred_at: t(0), location: 'EWR' });
    const batch = [
      received,
      scan({ container_id: containerId, event: 'departed', occurred_at: t(10) }),
      scan({ tracking_number: a, event: 'delivered', occurred_at: t(20) }),
      scan({ tracking_number: b, event: 'received', occurred_at: t(5) }),
      scan({ tracking_number: 'NOPE-1', event: 'received' }),
      scan({ tracking_number: a, event: 'received', location: 'not a place' }),
      received,
    ];
    const result = await scans(batch);
    expect(result.status, result.text).toBe(200);
    expect(result.json.results.map((r: { result: string }) => r.result)).toEqual([
      'applied',
      'applied',
      'refused',
      'recorded',
      'refused',
      'refused',
      'duplicate',
    ]);
    expect(result.json.results[2].error).toMatchObject({ code: 'illegal_transition', current_status: 'in_transit' });
    // Within a batch scans apply in occurred_at order: b was received by its container's scan already.
    expect(result.json.results[3]).toMatchObject({ reason: 'repeat', current_status: 'received' });
    expect(result.json.results[4].error.code).toBe('not_found');
    expect(result.json.results[5].error.code).toBe('validation_failed');
    expect(result.json).toMatchObject({ applied: 2, recorded: 1, duplicate: 1, refused: 3 });

    // The container carried its packages: received, then in transit.
    const pkg = await call(`/packages/${a}`, { ...GET, token: account.tokens.test });
    expect(pkg.json.status).toBe('in_transit');
    const timeline = await call(`/packages/${b}/events`, { ...GET, token: account.tokens.test });
    expect(timeline.json.data.map((e: { status: string; applied: boolean }) => [e.status, e.applied])).toEqual([
      ['received', true],
      ['received', false],
      ['in_transit', true],
    ]);
    expect(timeline.json.data[0].location).toBe('EWR');

    // A later batch with a scan older than b's current status: kept in the history, status unmoved.
    const late = await scans([scan({ tracking_number: b, event: 'out_for_delivery', occurred_at: t(1) })]);
    expect(late.json.results[0]).toMatchObject({ result: 'recorded', reason: 'out_of_order', current_status: 'in_transit' });
    const still = await call(`/packages/${b}`, { ...GET, token: account.tokens.test });
    expect(still.json.status).toBe('in_transit');

    // The whole batch again: nothing applied twice.
    const again = await scans(batch);
    expect(again.json.results.map((r: { result: string }) => r.result)).toEqual([
      'duplicate',
      'duplicate',
      'refused',
      'duplicate',
      'refused',
      'refused',
      'duplicate',
    ]);
    const after = await call(`/packages/${b}/events`, { ...GET, token: account.tokens.test });
    expect(after.json.data.map((e: { status: string; applied: boolean }) => [e.status, e.applied])).toEqual([
      ['received', true],
      ['out_for_delivery', false],
      ['received', false],
      ['in_transit', true],
    ]);
  });

  it('refuses batches over 1,000 scans as a whole', async () => {
    const result = await scans(Array.from({ length: 1_001 }, () => ({})));
    const error = expectError(result, 422, 'validation_failed');
    expect(error.details?.[0]?.path).toBe('scans');
  });

  it("writes each applied transition's webhook through the outbox, in its transaction", async () => {
    const account = await newAccount();
    const created = await call('/webhooks', {
      token: account.tokens.test,
      body: { url: 'https://93.184.215.14/hooks', events: ['package.received', 'package.in_transit', 'container.received'] },
    });
    expect(created.status, created.text).toBe(201);
    const n = tracking('WH');
    const { containerId, manifestId } = await container(account, [n]);
    await scans([scan({ container_id: containerId, event: 'received', location: 'JFK' })]);
    const { rows } = await pgPool().query<{ event_type: string; payload: Record<string, unknown>; messages: number }>(
      `SELECT e.event_type, e.payload, (SELECT count(*)::int FROM webhook_messages m WHERE m.event_id = e.id) AS messages
       FROM webhook_events e WHERE e.account_id = $1 ORDER BY e.event_type`,
      [account.accountId],
    );
    expect(rows.map((r) => [r.event_type, r.messages])).toEqual([
      ['container.received', 1],
      ['package.received', 1],
    ]);
    expect(rows[0]?.payload).toMatchObject({
      container_id: containerId,
      manifest_id: manifestId,
      status: 'received',
      previous_status: 'manifested',
      location: 'JFK',
    });
    expect(rows[1]?.payload).toMatchObject({
      tracking_number: n,
      manifest_id: manifestId,
      status: 'received',
      previous_status: 'manifested',
      location: 'JFK',
    });
  });
});

describe('simulator', () => {
  it('walks every intermediate state on the test path, and is not on the live path', async () => {
    const account = await newAccount();
    const n = tracking('SM');
    await dailyPackage(account, n);
    const done = await call(`/packages/${n}/simulate`, { token: account.tokens.test, body: { status: 'delivered' } });
    expect(done.status, done.text).toBe(200);
    expect(done.json.status).toBe('delivered');
    const events = await call(`/packages/${n}/events`, { ...GET, token: account.tokens.test });
    expect(events.json.data.map((e: { status: string; source: string }) => `${e.status}/${e.source}`)).toEqual([
      'received/simulator',
      'in_transit/simulator',
      'out_for_delivery/simulator',
      'delivered/simulator',
    ]);
    expectError(
      await call(`/packages/${n}/simulate`, { token: account.tokens.test, body: { status: 'received' } }),
      409,
      'illegal_transition',
    );
    expectError(
      await call(`/packages/${n}/simulate`, { env: 'live', token: account.tokens.live, body: { status: 'delivered' } }),
      404,
      'not_found',
    );

    const m = tracking('SX');
    await dailyPackage(account, m);
    const failed = await call(`/packages/${m}/simulate`, {
      token: account.tokens.test,
      body: { status: 'exception', code: 'damaged' },
    });
    expect(failed.json.status).toBe('exception');
    const timeline = await call(`/packages/${m}/events`, { ...GET, token: account.tokens.test });
    expect(timeline.json.data.at(-1)).toMatchObject({
      status: 'exception',
      exception: { code: 'damaged', text: 'Simulated exception' },
    });
  });

  it('a container walks with its packages', async () => {
    const account = await newAccount();
    const n = tracking('SC');
    const { manifestId } = await container(account, [n]);
    const done = await call(`/manifests/${manifestId}/simulate`, { token: account.tokens.test, body: { status: 'arrived' } });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'arrived', totals: { by_status: { in_transit: 1 } } });
  });

  it('refuses, whole and before any change, a walk that would send more webhook deliveries than one call may', async () => {
    const account = await newAccount('Amplifier');
    const numbers = Array.from({ length: 700 }, (_, i) => `AMP${randomUUID().slice(0, 8)}${i}`);
    const { manifestId } = await container(account, numbers);
    // 16 endpoints subscribed to package.received: 700 packages received would be 11,200 deliveries.
    for (let i = 0; i < 16; i++) {
      const hook = await call('/webhooks', {
        token: account.tokens.test,
        body: { url: `https://93.184.215.14/hooks/${i}`, events: ['package.received'] },
      });
      expect(hook.status, hook.text).toBe(201);
    }
    const refused = await call(`/manifests/${manifestId}/simulate`, { token: account.tokens.test, body: { status: 'received' } });
    const error = expectError(refused, 422, 'validation_failed');
    expect(error.details?.[0]).toMatchObject({ path: 'status', message: expect.stringContaining('11200 webhook deliveries') });
    const unchanged = await call(`/manifests/${manifestId}`, { ...GET, token: account.tokens.test });
    expect(unchanged.json.status).toBe('manifested');
    const { rows } = await pgPool().query(
      "SELECT count(*)::int AS n FROM webhook_events WHERE account_id = $1 AND event_type = 'package.received'",
      [account.accountId],
    );
    expect(rows[0].n).toBe(0);
    // With 14 endpoints the same walk (9,800 deliveries) is within the bound.
    const hooks = await call('/webhooks', { ...GET, token: account.tokens.test });
    for (const hook of hooks.json.data.slice(0, 2))
      expect((await call(`/webhooks/${hook.id}`, { method: 'DELETE', token: account.tokens.test })).status).toBe(204);
    const walked = await call(`/manifests/${manifestId}/simulate`, { token: account.tokens.test, body: { status: 'received' } });
    expect(walked.status, walked.text).toBe(200);
    const { rows: after } = await pgPool().query(
      'SELECT count(*)::int AS n FROM webhook_messages m JOIN webhook_events e ON e.id = m.event_id WHERE e.account_id = $1',
      [account.accountId],
    );
    expect(after[0].n).toBe(700 * 14);
  });
});

describe('state machine property', () => {
  it('no sequence of scans, cancels and simulations lands a transition outside the table', async () => {
    const account = await newAccount('Property');
    const actions = fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('scan' as const),
          event: fc.constantFrom('received', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'resolved'),
        }),
        fc.record({ kind: fc.constant('cancel' as const) }),
        fc.record({
          kind: fc.constant('simulate' as const),
          status: fc.constantFrom('received', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'cancelled'),
        }),
      ),
      { minLength: 1, maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(actions, async (sequence) => {
        const n = tracking('PR');
        await dailyPackage(account, n);
        for (const action of sequence) {
          if (action.kind === 'scan') await scans([scan({ tracking_number: n, event: action.event })]);
          else if (action.kind === 'cancel') await call(`/packages/${n}/cancel`, { token: account.tokens.test });
          else await call(`/packages/${n}/simulate`, { token: account.tokens.test, body: { status: action.status } });
        }
        const { rows } = await pgPool().query<{ status: string; previous_status: string }>(
          `SELECT status, previous_status FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2 AND applied ORDER BY occurred_at, id`,
          [account.accountId, n],
        );
        let current: PackageStatus = 'manifested';
        for (const row of rows) {
          expect(row.previous_status).toBe(current);
          expect(Object.values(PACKAGE_TRANSITIONS[current])).toContain(row.status);
          current = row.status as PackageStatus;
        }
        const pkg = await call(`/packages/${n}`, { ...GET, token: account.tokens.test });
        expect(pkg.json.status).toBe(current);
      }),
      { numRuns: 15 },
    );
  });
});
