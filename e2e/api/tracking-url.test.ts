import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { baseUrl, call, newAccount, tracking, type Env, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// `tracking_url`: the package's public tracking page (by carrier barcode, under the app's public origin) in the reads
// and in the webhook payloads of package events; a test package's is the test page (/track/test/…), which says so.

let acme: TestAccount;
let ops: string;
beforeAll(async () => {
  acme = await newAccount('Tracking links');
  ops = (await createOpsToken({ name: 'tracking url tests' })).token;
  // Lifecycle events are stored (and listed by GET /events) when an endpoint subscribes to them.
  for (const env of ['test', 'live'] as const) {
    const hook = await call('/webhooks', {
      env,
      token: acme.tokens[env],
      body: { url: 'https://93.184.215.14/hooks/tracking-url', events: ['package.received', 'package.cancelled'] },
    });
    expect(hook.status, hook.text).toBe(201);
  }
});

const GET = { method: 'GET' } as const;
const get = (path: string, env: Env) => call(path, { ...GET, env, token: acme.tokens[env] });

/** The link the server builds (APP_URL unset in the test server: http://localhost:<its port>). */
const linkFor = (barcode: string) => `http://localhost:${new URL(baseUrl).port}/track/${barcode}`;
const testLinkFor = (barcode: string) => `http://localhost:${new URL(baseUrl).port}/track/test/${barcode}`;

describe('tracking_url', () => {
  it('a live package: in GET, the list, the manifest’s packages and a container’s; the link opens its public page', async () => {
    const tn = tracking('TU');
    const created = await call('/wf/package', { env: 'live', token: acme.tokens.live, body: packageSample(tn) });
    expect(created.status, created.text).toBe(200);
    const one = await get(`/packages/${tn}`, 'live');
    expect(one.status, one.text).toBe(200);
    const barcode: string = one.json.carrier_barcode;
    expect(one.json.tracking_url).toBe(linkFor(barcode));
    const listed = await get(`/packages?tracking_number=${tn}`, 'live');
    expect(listed.json.data.map((p: { tracking_url: string }) => p.tracking_url)).toEqual([linkFor(barcode)]);
    const ofManifest = await get(`/manifests/${created.json.ManifestID}/packages?limit=100`, 'live');
    expect(ofManifest.json.data.find((p: { TrackingNumber: string }) => p.TrackingNumber === tn).tracking_url).toBe(
      linkFor(barcode),
    );
    const page = await fetch(`${baseUrl}${new URL(one.json.tracking_url).pathname}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(barcode);

    const inContainer = tracking('TU');
    const container = await call('/wf/manifest', {
      env: 'live',
      token: acme.tokens.live,
      body: containerSample(`ULD-${randomUUID().slice(0, 8)}`, [inContainer]),
    });
    expect(container.status, container.text).toBe(200);
    const read = await get(`/packages/${inContainer}`, 'live');
    expect(read.json.tracking_url).toBe(linkFor(read.json.carrier_barcode));
  });

  it('a test package: the test page, in the reads and in its events; the link opens a page that says it is a test', async () => {
    const tn = tracking('TU');
    expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(tn) })).status).toBe(200);
    const one = await get(`/packages/${tn}`, 'test');
    const barcode: string = one.json.carrier_barcode;
    expect(one.json).toHaveProperty('tracking_url', testLinkFor(barcode));
    const page = await fetch(`${baseUrl}${new URL(one.json.tracking_url).pathname}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Test package: this is not a real shipment');
    expect((await call(`/packages/${tn}/cancel`, { token: acme.tokens.test })).status).toBe(200);
    const events = await get('/events?type=package.cancelled&limit=100', 'test');
    const cancelled = events.json.data.find((e: { data: { tracking_number: string } }) => e.data.tracking_number === tn);
    expect(cancelled.data).toHaveProperty('tracking_url', testLinkFor(barcode));
  });

  it('in the payload of a live package’s lifecycle events (a carrier scan)', async () => {
    const tn = tracking('TU');
    expect((await call('/wf/package', { env: 'live', token: acme.tokens.live, body: packageSample(tn) })).status).toBe(200);
    const barcode: string = (await get(`/packages/${tn}`, 'live')).json.carrier_barcode;
    const scanned = await call('/ops/scans', {
      env: 'live',
      token: ops,
      body: {
        scans: [
          {
            scan_id: `s-${randomUUID()}`,
            carrier_barcode: barcode,
            event: 'received',
            location: 'JFK',
            occurred_at: new Date().toISOString(),
          },
        ],
      },
    });
    expect(scanned.status, scanned.text).toBe(200);
    const events = await get('/events?limit=100', 'live');
    const mine = events.json.data.filter((e: { data: { tracking_number?: string } }) => e.data.tracking_number === tn);
    expect(mine.map((e: { type: string }) => e.type)).toContain('package.received');
    for (const event of mine) expect(event.data.tracking_url, event.type).toBe(linkFor(barcode));
  });
});
