import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, newAccount, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// The events API: GET /events and GET /events/{id}, the account's webhook events newest first in the
// path's environment. package.sorting events are stored for every accepted package; lifecycle events when some
// endpoint subscribes to their type (lib/webhooks/enqueue-event.ts). The suite's server runs no delivery worker.

const PUBLIC_URL = 'https://93.184.215.14/hooks/events';

interface Event {
  id: string;
  object: string;
  type: string;
  created_at: string;
  test: boolean;
  data: Record<string, unknown>;
}
interface Page {
  object: string;
  data: Event[];
  has_more: boolean;
  next_cursor: string | null;
}

let acme: TestAccount;
let globex: TestAccount;
const suffix = Date.now().toString(36).toUpperCase();
const tracking = [1, 2, 3, 4, 5].map((n) => `EVT${suffix}${n}`);

async function get(account: TestAccount, path: string, env: 'test' | 'live' = 'test') {
  return call(path, { method: 'GET', token: account.tokens[env], env });
}

async function all(account: TestAccount, query: string): Promise<Event[]> {
  const seen: Event[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages += 1) {
    const result = await get(account, `/events?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(result.status, result.text).toBe(200);
    const page = result.json as Page;
    seen.push(...page.data);
    if (!page.has_more) return seen;
    cursor = page.next_cursor;
  }
  throw new Error('more than 50 pages');
}

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
  // An endpoint subscribed to package.cancelled, so the cancel below is stored as an event too.
  const hook = await call('/webhooks', { token: acme.tokens.test, body: { url: PUBLIC_URL, events: ['package.cancelled'] } });
  expect(hook.status, hook.text).toBe(201);
  for (const trackingNumber of tracking) {
    const created = await call('/wf/package', { token: acme.tokens.test, body: packageSample(trackingNumber) });
    expect(created.status, created.text).toBe(200);
  }
  const cancelled = await call(`/packages/${tracking[0]}/cancel`, { token: acme.tokens.test });
  expect(cancelled.status, cancelled.text).toBe(200);
});

describe('GET /events', () => {
  it('lists every event newest first, a page at a time, each once, with the body receivers were sent', async () => {
    const events = await all(acme, 'limit=2');
    expect(events.map((e) => e.type)).toEqual([
      'package.cancelled',
      'package.sorting',
      'package.sorting',
      'package.sorting',
      'package.sorting',
      'package.sorting',
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(6);
    const times = events.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    // Oldest last: the first package's sorting event, its data exactly the package.sorting body.
    const sorting = events.filter((e) => e.type === 'package.sorting');
    expect(sorting.map((e) => (e.data.tracking_numbers as string[])[0])).toEqual([...tracking].reverse());
    expect(sorting[4]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{24}$/),
      object: 'webhook_event',
      type: 'package.sorting',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      test: false,
      data: { manifest_id: expect.stringMatching(/^MAN-/), package_count: expect.any(Number), tracking_numbers: [tracking[0]] },
    });
    expect(Object.keys(sorting[4].data)).toEqual(['manifest_id', 'package_count', 'tracking_numbers']);
    expect(events[0].data).toMatchObject({ tracking_number: tracking[0], status: 'cancelled' });
  });

  it('filters by type and by UTC day, inclusive', async () => {
    const cancelled = await all(acme, 'type=package.cancelled');
    expect(cancelled.map((e) => e.data.tracking_number)).toEqual([tracking[0]]);
    // Case-insensitive, as every list's enums.
    expect((await all(acme, 'type=PACKAGE.SORTING')).length).toBe(5);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // Around midnight UTC the events may fall on either side: the two days together always hold all six.
    const onDays = (await all(acme, `from=${yesterday}&to=${today}`)).length;
    expect(onDays).toBe(6);
    expect((await all(acme, `from=${tomorrow}`)).length).toBe(0);
    expect((await all(acme, `to=${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}`)).length).toBe(0);
  });

  it('GET /events/{id} answers the same event; another account and the other environment do not see it', async () => {
    const [first] = await all(acme, 'type=package.cancelled');
    const one = await get(acme, `/events/${first.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual(first);
    expectError(await get(globex, `/events/${first.id}`), 404, 'not_found');
    expectError(await get(acme, `/events/${first.id}`, 'live'), 404, 'not_found');
    expect(await all(globex, 'limit=100')).toEqual([]);
    const live = await get(acme, '/events', 'live');
    expect(live.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    expectError(await get(acme, '/events/evt_nosuchevent000000000000'), 404, 'not_found');
  });

  it('a bad query is a 422 naming the parameter; a hostile id is a 4xx, never a 5xx', async () => {
    const cases: [string, string][] = [
      ['type=package.sorted', 'type'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=2&limit=3', 'limit'],
      ['cursor=abc', 'cursor'],
      [`cursor=${'A'.repeat(201)}`, 'cursor'],
      ['from=2026-02-30', 'from'],
      ['from=0000-01-01', 'from'],
      ['from=2026-11-23&to=2026-11-22', 'to'],
      ['status=delivered', 'status'],
      ['type=%00', 'type'],
    ];
    for (const [query, field] of cases) {
      const error = expectError(await get(acme, `/events?${query}`), 422, 'validation_failed');
      expect(
        error.details?.map((d) => d.path),
        query,
      ).toContain(field);
    }
    for (const path of ['/events/%ZZ', '/events/evt_%00', `/events/${'x'.repeat(5000)}`, '/events/..%2F..%2Fwebhooks']) {
      const result = await get(acme, path);
      expect(result.status, `${path}: ${result.text}`).toBeGreaterThanOrEqual(400);
      expect(result.status, path).toBeLessThan(500);
    }
  });

  it("needs a token of the path's environment", async () => {
    expectError(await call('/events', { method: 'GET', token: null }), 401, 'unauthorized');
    expectError(await call('/events', { method: 'GET', token: acme.tokens.live, env: 'test' }), 401, 'wrong_environment');
  });
});

describe('order', () => {
  it('lists the events one transaction wrote in the order they were written, newest first, page after page', async () => {
    const shipper = await newAccount('Ordered');
    const hook = await call('/webhooks', {
      token: shipper.tokens.test,
      body: {
        url: PUBLIC_URL,
        events: ['package.received', 'package.in_transit', 'package.out_for_delivery', 'package.delivered'],
      },
    });
    expect(hook.status, hook.text).toBe(201);
    const numbers = [1, 2, 3].map((n) => `ORD${suffix}${n}`);
    for (const trackingNumber of numbers) {
      expect((await call('/wf/package', { token: shipper.tokens.test, body: packageSample(trackingNumber) })).status).toBe(200);
      // One simulate call walks every state in one transaction: four events with one created_at.
      const walked = await call(`/packages/${trackingNumber}/simulate`, {
        token: shipper.tokens.test,
        body: { status: 'delivered' },
      });
      expect(walked.status, walked.text).toBe(200);
    }
    const walk = ['package.delivered', 'package.out_for_delivery', 'package.in_transit', 'package.received', 'package.sorting'];
    for (const limit of [100, 1, 3]) {
      const events = await all(shipper, `limit=${limit}`);
      expect(events.map((e) => e.type)).toEqual([...walk, ...walk, ...walk]);
      const subjects = events.map((e) =>
        e.type === 'package.sorting' ? (e.data.tracking_numbers as string[])[0] : e.data.tracking_number,
      );
      expect(subjects).toEqual([...numbers].reverse().flatMap((n) => walk.map(() => n)));
    }
  });
});

describe('container.closed', () => {
  it('is an event, with its name in the body, when a container reaches closed', async () => {
    const shipper = await newAccount('Closing');
    const hook = await call('/webhooks', {
      token: shipper.tokens.test,
      body: { url: PUBLIC_URL, events: ['container.arrived', 'container.closed'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const containerId = `ULD-CLOSE-${suffix}`;
    const created = await call('/wf/manifest', {
      token: shipper.tokens.test,
      body: containerSample(containerId, [`CLS${suffix}1`]),
    });
    expect(created.status, created.text).toBe(200);
    const walked = await call(`/manifests/${created.json.ManifestID}/simulate`, {
      token: shipper.tokens.test,
      body: { status: 'closed' },
    });
    expect(walked.status, walked.text).toBe(200);
    const events = await all(shipper, 'limit=100');
    expect(events.map((e) => e.type)).toEqual(['container.closed', 'container.arrived']);
    expect(events[0]?.data).toMatchObject({
      type: 'container.closed',
      container_id: containerId,
      status: 'closed',
      previous_status: 'arrived',
    });
    expect(events[1]?.data).toMatchObject({ type: 'container.arrived' });
  });
});
