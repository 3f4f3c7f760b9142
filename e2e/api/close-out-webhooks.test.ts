import { SYSTEM_ORIGIN } from '@/lib/audit/record-audit';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageSample } from './support/samples';
import { waitFor, type Received } from './support/webhook-receiver';
import { deliveryHarness, testApi, tn } from './support/delivery';

// The manifest.closed delivered end to end: the real app and a real worker process on a database of their own,
// a receiver on loopback. A daily manifest closed by the shipper (POST /manifests/{id}/close, twice) and one closed by
// the cut-off job (run here with a clock the test sets); the package after the close arrives as package.sorting naming
// the NEW manifest. Every delivery's signature is verified with the public `standardwebhooks` package.

const hooks = deliveryHarness('carrier_cwh');
let newAccount: typeof import('./support/api').newAccount;
let closeDueManifests: typeof import('@/lib/close-out/cutoff').closeDueManifests;
let setCloseOutSettings: typeof import('@/lib/close-out/cutoff').setCloseOutSettings;

const { request, ok } = testApi(hooks.apiUrl);

beforeAll(async () => {
  ({ newAccount } = await import('./support/api'));
  ({ closeDueManifests, setCloseOutSettings } = await import('@/lib/close-out/cutoff'));
});

describe('manifest.closed', () => {
  it('is delivered signed, once per close, with package_count and the document path; the next package.sorting names the new manifest', async () => {
    const shipper = await newAccount('Close hooks');
    const token = shipper.tokens.test;
    const path = `/close-out/${randomUUID()}`;
    const endpoint = await request('POST', '/webhooks', token, {
      url: hooks.receiver.url(path),
      events: ['manifest.closed', 'package.sorting'],
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const secret: string = endpoint.json.secret;
    hooks.receiver.on(path, secret);

    const [a, b, c] = [tn('HA'), tn('HB'), tn('HC')];
    const first: string = (await ok('POST', '/wf/package', token, packageSample(a))).ManifestID;
    await ok('POST', '/wf/package', token, packageSample(b));
    const closed = await ok('POST', `/manifests/${first}/close`, token);
    await ok('POST', `/manifests/${first}/close`, token);
    const second: string = (await ok('POST', '/wf/package', token, packageSample(c))).ManifestID;
    expect(second).not.toBe(first);

    // Closed by the shipper too, so that the cut-off below (whose "now" is later than every ManifestDate here) has
    // only the 2027 manifest to close.
    const closedSecond = await ok('POST', `/manifests/${second}/close`, token);
    // The cut-off: 06:00 UTC on the ManifestDate, run with that moment as "now".
    await setCloseOutSettings(
      { accountId: shipper.accountId, environment: 'test', origin: SYSTEM_ORIGIN },
      { cutoff_hour: 6, time_zone: 'UTC' },
    );
    const d = tn('HD');
    const dated: string = (await ok('POST', '/wf/package', token, packageSample(d, '2027-03-10T02:00:00Z'))).ManifestID;
    const ran = await closeDueManifests({ now: new Date('2027-03-10T06:00:00.000Z') });
    expect(ran.map((r) => r.manifestId)).toEqual([dated]);

    const expected = 4 + 3; // package.sorting ×4, manifest.closed ×3
    const got = await waitFor(() => hooks.receiver.at(path).length >= expected && hooks.receiver.at(path), {
      what: `${expected} deliveries`,
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 500)); // nothing more should come
    expect(hooks.receiver.at(path)).toHaveLength(expected);
    const hook = new Webhook(secret);
    const deliveries = got.map((r: Received) => {
      const payload = hook.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      expect(r.verifyError).toBeNull();
      // Every event but package.sorting names itself in the signed body, as the header does.
      const { type, ...rest } = payload as Record<string, unknown>;
      if (r.headers['x-carrier-event'] !== 'package.sorting') expect(type).toBe(r.headers['x-carrier-event']);
      else expect(type).toBeUndefined();
      return { type: String(r.headers['x-carrier-event']), payload: rest };
    });
    const closes = deliveries
      .filter((x) => x.type === 'manifest.closed')
      .map((x) => x.payload)
      .sort((x, y) => String(x.occurred_at).localeCompare(String(y.occurred_at)));
    expect(closes).toEqual(
      [
        {
          manifest_id: first,
          status: 'closed',
          previous_status: 'manifested',
          occurred_at: closed.status_updated_at,
          location: null,
          package_count: 2,
          document_path: `/version-test/api/1.1/manifests/${first}/document`,
          closed_by: 'shipper',
        },
        {
          manifest_id: second,
          status: 'closed',
          previous_status: 'manifested',
          occurred_at: closedSecond.status_updated_at,
          location: null,
          package_count: 1,
          document_path: `/version-test/api/1.1/manifests/${second}/document`,
          closed_by: 'shipper',
        },
        {
          manifest_id: dated,
          status: 'closed',
          previous_status: 'manifested',
          occurred_at: '2027-03-10T06:00:00.000Z',
          location: null,
          package_count: 1,
          document_path: `/version-test/api/1.1/manifests/${dated}/document`,
          closed_by: 'cutoff',
        },
      ].sort((x, y) => x.occurred_at.localeCompare(y.occurred_at)),
    );
    const sorting = deliveries.filter((x) => x.type === 'package.sorting').map((x) => x.payload);
    expect(sorting.find((p) => (p.tracking_numbers as string[])[0] === c)).toMatchObject({
      manifest_id: second,
      package_count: 1,
      tracking_numbers: [c],
    });
    expect(sorting.find((p) => (p.tracking_numbers as string[])[0] === a)).toMatchObject({ manifest_id: first });
    // The document the event links to is there, for this token, as a PDF.
    const document = await fetch(`${hooks.apiUrl()}${String(closes[0]?.document_path)}`, {
      headers: { authorization: `Token ${token}` },
    });
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('application/pdf');
  });
});
