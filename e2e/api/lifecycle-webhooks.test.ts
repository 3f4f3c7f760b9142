import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { containerSample, packageSample } from './support/samples';
import { waitFor, type Received } from './support/webhook-receiver';
import { deliveryHarness, testApi, tn } from './support/delivery';

// The lifecycle events delivered end to end: the real app and a real worker process on a database of their
// own, a receiver on loopback. Transitions are driven by the simulator, cancel and carrier scans (POST /ops/scans);
// every delivery's signature is verified here with the public `standardwebhooks` package (independently of the
// receiver's own check), and each payload is the exact object design.md names, in transition order per package.

const hooks = deliveryHarness('carrier_lwh');
let newAccount: typeof import('./support/api').newAccount;
let createOpsToken: typeof import('@/lib/auth/ops-tokens').createOpsToken;
let ops: string;

const { request, ok } = testApi(hooks.apiUrl);

beforeAll(async () => {
  ({ newAccount } = await import('./support/api'));
  ({ createOpsToken } = await import('@/lib/auth/ops-tokens'));
  ops = (await createOpsToken({ name: 'lifecycle webhooks test' })).token;
});

const SUBSCRIBED = [
  'package.received',
  'package.in_transit',
  'package.delivered',
  'package.cancelled',
  'container.received',
  'manifest.cancelled',
];

describe('lifecycle webhooks', () => {
  it('delivers each subscribed transition signed per Standard Webhooks, with the exact payload, in order per package', async () => {
    const shipper = await newAccount('Lifecycle hooks');
    const token = shipper.tokens.test;
    const path = `/lifecycle/${randomUUID()}`;
    const endpoint = await request('POST', '/webhooks', token, { url: hooks.receiver.url(path), events: SUBSCRIBED });
    expect(endpoint.status, endpoint.text).toBe(201);
    const secret: string = endpoint.json.secret;
    hooks.receiver.on(path, secret);

    // A daily package walked to delivered by the simulator: received, in_transit, (out_for_delivery: not subscribed), delivered.
    const simulated = tn('LS');
    const dailyId: string = (await ok('POST', '/wf/package', token, packageSample(simulated))).ManifestID;
    await ok('POST', `/packages/${simulated}/simulate`, token, { status: 'delivered' });
    // A package of the same daily manifest cancelled alone.
    const cancelled = tn('LC');
    await ok('POST', '/wf/package', token, packageSample(cancelled));
    await ok('POST', `/packages/${cancelled}/cancel`, token);
    // Another day's daily manifest cancelled whole: its package, then the manifest.
    const wholeDay = tn('LM');
    const cancelledDailyId: string = (await ok('POST', '/wf/package', token, packageSample(wholeDay, '2026-11-25T08:00:00Z')))
      .ManifestID;
    await ok('POST', `/manifests/${cancelledDailyId}/cancel`, token);
    // A container received and a daily package moved by carrier scans.
    const inContainer = tn('LK');
    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    const containerManifestId: string = (await ok('POST', '/wf/manifest', token, containerSample(containerId, [inContainer])))
      .ManifestID;
    const scanned = tn('LO');
    const scannedDailyId: string = (await ok('POST', '/wf/package', token, packageSample(scanned))).ManifestID;
    const base = Date.now() - 60_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const scans = await request('POST', '/ops/scans', ops, {
      scans: [
        { scan_id: `s-${randomUUID()}`, container_id: containerId, event: 'received', occurred_at: at(0), location: 'EWR' },
        { scan_id: `s-${randomUUID()}`, tracking_number: scanned, event: 'received', occurred_at: at(1), location: 'JFK' },
        { scan_id: `s-${randomUUID()}`, tracking_number: scanned, event: 'in_transit', occurred_at: at(2), location: 'ORD' },
      ],
    });
    expect(scans.status, scans.text).toBe(200);
    expect(scans.json.results.map((r: { result: string }) => r.result)).toEqual(['applied', 'applied', 'applied']);

    const expected = 3 + 1 + 2 + 2 + 2; // simulated, cancelled, whole day (package + manifest), container + its package, scanned
    const got = await waitFor(() => hooks.receiver.at(path).length >= expected && hooks.receiver.at(path), {
      what: `${expected} deliveries`,
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 500)); // nothing more should come
    expect(hooks.receiver.at(path)).toHaveLength(expected);

    const hook = new Webhook(secret);
    const deliveries = got.map((r: Received) => {
      // Verified here with the public package; throws on a bad signature or a stale timestamp.
      const payload = hook.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      expect(r.verifyError).toBeNull();
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-z]+$/);
      // The event's name is in the signed body too, the same as the header's.
      const { type, ...rest } = payload as Record<string, unknown>;
      expect(type).toBe(r.headers['x-carrier-event']);
      return { type: String(type), payload: rest };
    });
    // A tampered body does not verify.
    const first = got[0];
    expect(first).toBeDefined();
    expect(() =>
      hook.verify(`${first.body} `, {
        'webhook-id': String(first.headers['webhook-id']),
        'webhook-timestamp': String(first.headers['webhook-timestamp']),
        'webhook-signature': String(first.headers['webhook-signature']),
      }),
    ).toThrow();
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(expected);

    const occurred = (p: Record<string, unknown>) => {
      expect(typeof p.occurred_at).toBe('string');
      expect(new Date(String(p.occurred_at)).toISOString()).toBe(p.occurred_at);
      return p.occurred_at;
    };
    // One package's deliveries arrive in transition order (claim-messages.ts: one at a time per package and endpoint),
    // so they are read here in arrival order, not sorted.
    const ofPackage = (number: string) => deliveries.filter((d) => d.payload.tracking_number === number);
    for (const d of deliveries) occurred(d.payload);

    const sim = ofPackage(simulated);
    expect(sim.map((d) => [d.type, d.payload.previous_status, d.payload.status])).toEqual([
      ['package.received', 'manifested', 'received'],
      ['package.in_transit', 'received', 'in_transit'],
      ['package.delivered', 'out_for_delivery', 'delivered'],
    ]);
    for (const d of sim)
      expect(d.payload).toEqual({
        tracking_number: simulated,
        carrier_barcode: expect.stringMatching(/^CB\d{13}$/),
        tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
        house_waybill: expect.stringMatching(/^H\d{11}$/),
        manifest_id: dailyId,
        status: d.payload.status,
        previous_status: d.payload.previous_status,
        occurred_at: d.payload.occurred_at,
        location: null,
      });
    expect(new Set(sim.map((d) => d.payload.occurred_at)).size).toBe(3);

    expect(ofPackage(cancelled).map((d) => [d.type, d.payload])).toEqual([
      [
        'package.cancelled',
        {
          tracking_number: cancelled,
          carrier_barcode: expect.stringMatching(/^CB\d{13}$/),
          tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
          house_waybill: expect.stringMatching(/^H\d{11}$/),
          manifest_id: dailyId,
          status: 'cancelled',
          previous_status: 'manifested',
          occurred_at: expect.any(String),
          location: null,
        },
      ],
    ]);
    expect(ofPackage(wholeDay).map((d) => [d.type, d.payload])).toEqual([
      [
        'package.cancelled',
        {
          tracking_number: wholeDay,
          carrier_barcode: expect.stringMatching(/^CB\d{13}$/),
          tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
          house_waybill: expect.stringMatching(/^H\d{11}$/),
          manifest_id: cancelledDailyId,
          status: 'cancelled',
          previous_status: 'manifested',
          occurred_at: expect.any(String),
          location: null,
        },
      ],
    ]);
    expect(deliveries.filter((d) => d.type === 'manifest.cancelled').map((d) => d.payload)).toEqual([
      {
        manifest_id: cancelledDailyId,
        status: 'cancelled',
        previous_status: 'manifested',
        occurred_at: expect.any(String),
        location: null,
      },
    ]);
    expect(deliveries.filter((d) => d.type === 'container.received').map((d) => d.payload)).toEqual([
      {
        container_id: containerId,
        manifest_id: containerManifestId,
        status: 'received',
        previous_status: 'manifested',
        occurred_at: at(0),
        location: 'EWR',
      },
    ]);
    expect(ofPackage(inContainer).map((d) => [d.type, d.payload])).toEqual([
      [
        'package.received',
        {
          tracking_number: inContainer,
          carrier_barcode: expect.stringMatching(/^CB\d{13}$/),
          tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
          house_waybill: expect.stringMatching(/^H\d{11}$/),
          container_id: containerId,
          manifest_id: containerManifestId,
          status: 'received',
          previous_status: 'manifested',
          occurred_at: at(0),
          location: 'EWR',
        },
      ],
    ]);
    expect(ofPackage(scanned).map((d) => [d.type, d.payload])).toEqual([
      [
        'package.received',
        {
          tracking_number: scanned,
          carrier_barcode: expect.stringMatching(/^CB\d{13}$/),
          tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
          house_waybill: expect.stringMatching(/^H\d{11}$/),
          manifest_id: scannedDailyId,
          status: 'received',
          previous_status: 'manifested',
          occurred_at: at(1),
          location: 'JFK',
        },
      ],
      [
        'package.in_transit',
        {
          tracking_number: scanned,
          carrier_barcode: expect.stringMatching(/^CB\d{13}$/),
          tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
          house_waybill: expect.stringMatching(/^H\d{11}$/),
          manifest_id: scannedDailyId,
          status: 'in_transit',
          previous_status: 'received',
          occurred_at: at(2),
          location: 'ORD',
        },
      ],
    ]);
    // Nothing the endpoint did not subscribe to (out_for_delivery) was sent.
    expect(deliveries.every((d) => SUBSCRIBED.includes(d.type))).toBe(true);
  });

  it("delivers one package's events one at a time in transition order, a later one waiting for an earlier one's retry", async () => {
    const shipper = await newAccount('Ordered hooks');
    const token = shipper.tokens.test;
    const path = `/ordered/${randomUUID()}`;
    const events = ['package.received', 'package.in_transit', 'package.out_for_delivery', 'package.delivered'];
    const endpoint = await request('POST', '/webhooks', token, { url: hooks.receiver.url(path), events });
    expect(endpoint.status, endpoint.text).toBe(201);
    // The first attempt fails (a retry follows 50 ms later: WORKER_ENV); every answer is slow, so that a delivery
    // sent beside another (the worker sends up to WEBHOOK_CONCURRENCY at once) would overtake it.
    let open = 0;
    let mostOpen = 0;
    hooks.receiver.on(path, endpoint.json.secret, (n) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => (open -= 1), n === 0 ? 0 : 150);
      return n === 0 ? { status: 500 } : { status: 200, delayMs: 150 };
    });
    const number = tn('LQ');
    await ok('POST', '/wf/package', token, packageSample(number));
    await ok('POST', `/packages/${number}/simulate`, token, { status: 'delivered' });
    const got = await waitFor(() => hooks.receiver.at(path).length >= 5 && hooks.receiver.at(path), {
      what: '5 attempts',
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(hooks.receiver.at(path)).toHaveLength(5);
    expect(got.map((r) => String(r.headers['x-carrier-event']))).toEqual(['package.received', ...events]);
    expect(got[1]?.headers['webhook-id']).toBe(got[0]?.headers['webhook-id']);
    expect(got.map((r) => JSON.parse(r.body).status)).toEqual([
      'received',
      'received',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(mostOpen).toBe(1);
  });
});
