import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { call, expectError, newAccount, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// Pickups: a window the service allows, one scheduled pickup per package, cancel before the window, completion by the
// carrier (or the simulator), each a signed event; another account's packages, manifests and pickups are never reachable.

let acme: TestAccount;
let rival: TestAccount;
const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
const ADDRESS = { company: 'Acme Parcels', address1: '1 Industrial Way', city: 'Newark', state: 'NJ', postal_code: '07114' };
const window = (from = 5, to = 9) => ({ ready_at: hours(from), close_at: hours(to) });

async function dailyPackages(account: TestAccount, count: number): Promise<string[]> {
  const numbers = Array.from({ length: count }, () => tracking('PU'));
  for (const number of numbers) {
    const answer = await call('/wf/package', { token: account.tokens.test, body: packageSample(number) });
    expect(answer.status, answer.text).toBe(200);
  }
  return numbers;
}

beforeAll(async () => {
  acme = await newAccount('Pickups');
  rival = await newAccount('Pickups rival');
});

describe('POST /pickups', () => {
  it('schedules named packages (any case, or by carrier barcode), answers 201 and sends pickup.scheduled', async () => {
    const [a, b] = await dailyPackages(acme, 2);
    const barcode = (await call(`/packages/${b}`, { method: 'GET', token: acme.tokens.test })).json.carrier_barcode;
    const answer = await call('/pickups', {
      token: acme.tokens.test,
      body: { tracking_numbers: [a.toLowerCase(), barcode], address: ADDRESS, ...window(), instructions: 'Dock 4' },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ object: 'pickup', status: 'scheduled', package_count: 2, tracking_numbers: [a, b] });
    expect(answer.json.id).toMatch(/^pu_[a-z0-9]{20}$/);
    const events = await pgPool().query(
      `SELECT event_type, payload FROM webhook_events WHERE account_id = $1 AND event_type LIKE 'pickup.%'`,
      [acme.accountId],
    );
    expect(events.rows).toContainEqual({
      event_type: 'pickup.scheduled',
      payload: expect.objectContaining({ type: 'pickup.scheduled', pickup_id: answer.json.id, package_count: 2 }),
    });
    const read = await call(`/pickups/${answer.json.id}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json).toEqual({ ...answer.json });
  });

  it("schedules a container's manifest; a package on a scheduled pickup cannot go on a second (409 naming the first)", async () => {
    const numbers = [tracking('PUC'), tracking('PUC')];
    const container = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers),
    });
    const manifestId = container.json.ManifestID as string;
    const first = await call('/pickups', {
      token: acme.tokens.test,
      body: { manifest_id: manifestId, address: ADDRESS, ...window() },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.json.package_count).toBe(2);
    const second = await call('/pickups', {
      token: acme.tokens.test,
      body: { tracking_numbers: [numbers[1]], address: ADDRESS, ...window(6, 10) },
    });
    expect(expectError(second, 409, 'conflict').message).toContain(first.json.id);
  });

  it('two schedulers of the same packages at once: one pickup', async () => {
    const numbers = await dailyPackages(acme, 3);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('/pickups', { token: acme.tokens.test, body: { tracking_numbers: numbers, address: ADDRESS, ...window() } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('refuses a window the service cannot serve, naming the field and the earliest time', async () => {
    const [number] = await dailyPackages(acme, 1);
    const body = (w: object) => ({ tracking_numbers: [number], address: ADDRESS, ...w });
    // The sample's service is AirSkip: 4 hours' lead.
    const soon = expectError(
      await call('/pickups', { token: acme.tokens.test, body: body(window(2, 6)) }),
      422,
      'validation_failed',
    );
    expect(soon.details).toEqual([
      expect.objectContaining({ path: 'ready_at', message: expect.stringContaining('240 minutes') }),
    ]);
    for (const [w, path] of [
      [window(5, 6), 'close_at'],
      [window(5, 20), 'close_at'],
      [window(24 * 15, 24 * 15 + 3), 'ready_at'],
      [{ ready_at: '2026-12-01T13:00:00', close_at: hours(9) }, 'ready_at'],
      [{ ready_at: 'tomorrow', close_at: hours(9) }, 'ready_at'],
      [{ ready_at: hours(5), close_at: '2026-02-30T10:00:00Z' }, 'close_at'],
    ] as const) {
      const refused = expectError(await call('/pickups', { token: acme.tokens.test, body: body(w) }), 422, 'validation_failed');
      expect(
        refused.details?.map((d) => d.path),
        JSON.stringify(w),
      ).toContain(path);
    }
  });

  it("never reaches another account's packages or manifests, nor the other environment's", async () => {
    const [theirs] = await dailyPackages(rival, 1);
    const stolen = await call('/pickups', {
      token: acme.tokens.test,
      body: { tracking_numbers: [theirs], address: ADDRESS, ...window() },
    });
    expect(expectError(stolen, 422, 'validation_failed').details?.[0]).toMatchObject({ path: 'tracking_numbers[0]' });
    const rivalManifest = (await call(`/packages/${theirs}`, { method: 'GET', token: rival.tokens.test })).json.ManifestID;
    const byManifest = await call('/pickups', {
      token: acme.tokens.test,
      body: { manifest_id: rivalManifest, address: ADDRESS, ...window() },
    });
    expect(expectError(byManifest, 422, 'validation_failed').details?.[0]?.path).toBe('manifest_id');
    const [mine] = await dailyPackages(acme, 1);
    const live = await call('/pickups', {
      env: 'live',
      token: acme.tokens.live,
      body: { tracking_numbers: [mine], address: ADDRESS, ...window() },
    });
    expect(expectError(live, 422, 'validation_failed').details?.[0]?.path).toBe('tracking_numbers[0]');
  });

  it('refuses neither or both of manifest_id and tracking_numbers, a package twice, one past the limit, hostile text', async () => {
    const [number] = await dailyPackages(acme, 1);
    const refuse = async (body: object, path: string) => {
      const refused = expectError(await call('/pickups', { token: acme.tokens.test, body }), 422, 'validation_failed');
      expect(
        refused.details?.map((d) => d.path),
        JSON.stringify(body).slice(0, 200),
      ).toContain(path);
    };
    await refuse({ address: ADDRESS, ...window() }, 'manifest_id');
    await refuse({ manifest_id: 'MAN-X', tracking_numbers: [number], address: ADDRESS, ...window() }, 'manifest_id');
    await refuse({ tracking_numbers: [number, number.toLowerCase()], address: ADDRESS, ...window() }, 'tracking_numbers[1]');
    await refuse(
      { tracking_numbers: Array.from({ length: 5_001 }, (_, i) => `T${i}`), address: ADDRESS, ...window() },
      'tracking_numbers',
    );
    await refuse({ tracking_numbers: [number], address: { ...ADDRESS, company: 'A\u0000B' }, ...window() }, 'address.company');
    await refuse({ tracking_numbers: [number], address: { ...ADDRESS, city: undefined }, ...window() }, 'address.city');
    await refuse({ tracking_numbers: [number], address: ADDRESS, ...window(), instructions: 'x'.repeat(501) }, 'instructions');
  });

  it('a pickup address that disagrees with its ZIP is scheduled with a warning naming the field', async () => {
    const [number] = await dailyPackages(acme, 1);
    const answer = await call('/pickups', {
      token: acme.tokens.test,
      body: { tracking_numbers: [number], address: { ...ADDRESS, city: 'Toronto' }, ...window(), ref: 'x' },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json.warnings.map((w: { path: string }) => w.path).sort()).toEqual(['address.city', 'ref']);
  });
});

describe('a pickup after it is scheduled', () => {
  it('cancels before the window (a retry answers the same), then the packages may go on another', async () => {
    const numbers = await dailyPackages(acme, 1);
    const pickup = (
      await call('/pickups', { token: acme.tokens.test, body: { tracking_numbers: numbers, address: ADDRESS, ...window() } })
    ).json;
    for (let i = 0; i < 2; i++) {
      const cancelled = await call(`/pickups/${pickup.id}/cancel`, { token: acme.tokens.test });
      expect(cancelled.status, cancelled.text).toBe(200);
      expect(cancelled.json.status).toBe('cancelled');
    }
    expectError(await call(`/pickups/${pickup.id}/simulate`, { token: acme.tokens.test }), 409, 'illegal_transition');
    const again = await call('/pickups', {
      token: acme.tokens.test,
      body: { tracking_numbers: numbers, address: ADDRESS, ...window() },
    });
    expect(again.status, again.text).toBe(201);
  });

  it('cannot be cancelled once its window has opened, nor once completed', async () => {
    const numbers = await dailyPackages(acme, 1);
    const pickup = (
      await call('/pickups', { token: acme.tokens.test, body: { tracking_numbers: numbers, address: ADDRESS, ...window() } })
    ).json;
    await pgPool().query(`UPDATE pickups SET ready_at = now() - interval '1 minute' WHERE id = $1`, [pickup.id]);
    expectError(await call(`/pickups/${pickup.id}/cancel`, { token: acme.tokens.test }), 409, 'not_cancellable');
    const done = await call(`/pickups/${pickup.id}/simulate`, { token: acme.tokens.test });
    expect(done.json.status).toBe('completed');
    expectError(await call(`/pickups/${pickup.id}/cancel`, { token: acme.tokens.test }), 409, 'not_cancellable');
  });

  it("is completed by the carrier's operations token; another account's pickup is a 404 to read, cancel or simulate", async () => {
    const numbers = await dailyPackages(acme, 1);
    const pickup = (
      await call('/pickups', { token: acme.tokens.test, body: { tracking_numbers: numbers, address: ADDRESS, ...window() } })
    ).json;
    for (const [path, method] of [
      [`/pickups/${pickup.id}`, 'GET'],
      [`/pickups/${pickup.id}/cancel`, 'POST'],
      [`/pickups/${pickup.id}/simulate`, 'POST'],
    ] as const) {
      expectError(await call(path, { method, token: rival.tokens.test }), 404, 'not_found');
    }
    expectError(await call(`/pickups/${pickup.id}`, { method: 'GET', env: 'live', token: acme.tokens.live }), 404, 'not_found');
    expectError(await call(`/ops/pickups/${pickup.id}/complete`, { token: acme.tokens.test }), 403, 'forbidden');
    const ops = (await createOpsToken({ name: 'pickups test' })).token;
    const done = await call(`/ops/pickups/${pickup.id}/complete`, { token: ops });
    expect(done.status, done.text).toBe(200);
    expect(done.json.status).toBe('completed');
    const events = await pgPool().query(
      `SELECT payload FROM webhook_events WHERE account_id = $1 AND event_type = 'pickup.completed'`,
      [acme.accountId],
    );
    expect(events.rows.map((r) => r.payload.pickup_id)).toContain(pickup.id);
  });

  it('lists newest first, page by page, filtered by status', async () => {
    const account = await newAccount('Pickups list');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const numbers = await dailyPackages(account, 1);
      ids.push(
        (
          await call('/pickups', {
            token: account.tokens.test,
            body: { tracking_numbers: numbers, address: ADDRESS, ...window() },
          })
        ).json.id,
      );
    }
    await call(`/pickups/${ids[0]}/cancel`, { token: account.tokens.test });
    const first = await call('/pickups?limit=2', { method: 'GET', token: account.tokens.test });
    expect(first.json.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const second = await call(`/pickups?limit=2&cursor=${first.json.next_cursor}`, { method: 'GET', token: account.tokens.test });
    expect(second.json).toMatchObject({ has_more: false, next_cursor: null, data: [{ id: ids[0] }] });
    const cancelled = await call('/pickups?status=cancelled', { method: 'GET', token: account.tokens.test });
    expect(cancelled.json.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expectError(await call('/pickups?cursor=nope', { method: 'GET', token: account.tokens.test }), 422, 'validation_failed');
  });
});
