import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { containerDetail, containerSample, packageSample } from './support/samples';
import { waitFor, type Received } from './support/webhook-receiver';
import { deliveryHarness, testApi, tn } from './support/delivery';

// Customs outcomes as lifecycle events, end to end: carrier scans (POST /ops/scans) and the test simulator record
// them on packages and containers, each sent as customs.<outcome> to a receiver on loopback by a real worker, signed
// (verified here with the public `standardwebhooks` package) and in order per package; they show in the timeline;
// a house on do_not_load holds its container's departure (the scan refused, the simulator 409, each naming the
// houses) until a new assessment completes; an amendment is package.amended, in the same order.

const hooks = deliveryHarness('carrier_customs');
let newAccount: typeof import('./support/api').newAccount;
let createOpsToken: typeof import('@/lib/auth/ops-tokens').createOpsToken;
let ops: string;

const { request, ok } = testApi(hooks.apiUrl);

beforeAll(async () => {
  ({ newAccount } = await import('./support/api'));
  ({ createOpsToken } = await import('@/lib/auth/ops-tokens'));
  ops = (await createOpsToken({ name: 'customs events test' })).token;
});

const CUSTOMS_EVENTS = [
  'customs.assessment_complete',
  'customs.information_requested',
  'customs.screening_requested',
  'customs.do_not_load',
  'customs.released',
  'package.amended',
  'package.received',
  'container.departed',
];

interface Delivery {
  type: string;
  id: string;
  payload: Record<string, unknown>;
}

/** Every delivery verified with the public package (throws on a bad signature), its type the header's. */
function verified(secret: string, got: Received[]): Delivery[] {
  const hook = new Webhook(secret);
  return got.map((r) => {
    const payload = hook.verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }) as Record<string, unknown>;
    expect(r.verifyError).toBeNull();
    expect(payload.type).toBe(r.headers['x-carrier-event']);
    const { type, ...rest } = payload;
    return { type: String(type), id: String(r.headers['webhook-id']), payload: rest };
  });
}

async function subscribed(token: string) {
  const path = `/customs/${randomUUID()}`;
  const endpoint = await request('POST', '/webhooks', token, { url: hooks.receiver.url(path), events: CUSTOMS_EVENTS });
  expect(endpoint.status, endpoint.text).toBe(201);
  hooks.receiver.on(path, endpoint.json.secret);
  return { path, secret: endpoint.json.secret as string };
}

describe('customs outcomes', () => {
  it('scans record them, each a signed customs.* webhook in order per package; do_not_load holds the departure until reassessed', async () => {
    const shipper = await newAccount('Customs events');
    const token = shipper.tokens.test;
    const { path, secret } = await subscribed(token);
    const [a] = [tn('CEA')];
    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    // Package B has no tracking number: its customs events name it by barcode and house waybill.
    const details = [containerDetail(a), { ...containerDetail(''), TrackingNumber: '' }];
    const manifestId: string = (
      await ok('POST', '/wf/manifest', token, { ...containerSample(containerId), ContainerDetails: details })
    ).ManifestID;
    const packages = (await ok('GET', `/manifests/${manifestId}/packages`, token)).data as Record<string, string>[];
    const [pa, pb] = packages as [Record<string, string>, Record<string, string>];
    const base = Date.now() - 120_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const scan = (body: Record<string, unknown>) => ({ scan_id: `s-${randomUUID()}`, location: 'JFK', ...body });

    const first = await request('POST', '/ops/scans', ops, {
      scans: [
        scan({ container_id: containerId, event: 'received', occurred_at: at(0) }),
        scan({
          tracking_number: a,
          event: 'information_requested',
          occurred_at: at(1),
          customs_reference: 'ENS-MRN-26DE0001',
          customs_text: 'Commercial invoice for the cotton goods',
        }),
        scan({ tracking_number: a, event: 'assessment_complete', occurred_at: at(2) }),
        scan({ carrier_barcode: pb.carrier_barcode, event: 'do_not_load', occurred_at: at(3), customs_text: 'Referral' }),
        // The outcome A has already: a repeat, history only.
        scan({ tracking_number: a, event: 'assessment_complete', occurred_at: at(4) }),
      ],
    });
    expect(first.status, first.text).toBe(200);
    const results = (answer: { json: { results: { result: string; reason?: string }[] } }) =>
      answer.json.results.map((r) => `${r.result}${r.reason ? `:${r.reason}` : ''}`);
    expect(results(first)).toEqual(['applied', 'applied', 'applied', 'applied', 'recorded:repeat']);

    // The container cannot depart with B on do_not_load: refused, naming B. A scan older than A's outcome: history only.
    const held = await request('POST', '/ops/scans', ops, {
      scans: [
        scan({ container_id: containerId, event: 'departed', occurred_at: at(5) }),
        scan({ carrier_barcode: pb.carrier_barcode, event: 'screening_requested', occurred_at: at(6) }),
        scan({ tracking_number: a, event: 'screening_requested', occurred_at: at(1.5) }),
      ],
    });
    expect(results(held)).toEqual(['refused', 'refused', 'recorded:out_of_order']);
    expect(held.json.results[0]).toMatchObject({
      result: 'refused',
      error: {
        code: 'do_not_load',
        details: [
          {
            path: 'carrier_barcode',
            message: expect.stringContaining(`${pb.carrier_barcode}: tracking number (none), house waybill ${pb.house_waybill}`),
          },
        ],
      },
    });
    // Only a new assessment lifts a hold.
    expect(held.json.results[1]).toMatchObject({
      result: 'refused',
      error: { code: 'illegal_transition', current_status: 'do_not_load' },
    });
    const simulated = await request('POST', `/manifests/${manifestId}/simulate`, token, { status: 'departed' });
    expect(simulated.status, simulated.text).toBe(409);
    expect(simulated.json.error).toMatchObject({ code: 'do_not_load', details: [{ path: 'carrier_barcode' }] });
    expect((await ok('GET', `/manifests/${manifestId}`, token)).status).toBe('received');

    // Reassessed (by the simulator here), it departs.
    expect(
      (await ok('POST', `/packages/${pb.carrier_barcode}/simulate`, token, { customs: 'assessment_complete' })).customs_status,
    ).toBe('assessment_complete');
    const departed = await request('POST', '/ops/scans', ops, {
      scans: [scan({ container_id: containerId, event: 'departed', occurred_at: new Date().toISOString() })],
    });
    expect(departed.json.results[0]).toMatchObject({ result: 'applied', status: 'departed' });

    // A's timeline shows its customs events with what customs said, the history-only ones too.
    const timeline = (await ok('GET', `/packages/${a}/events`, token)).data as Record<string, unknown>[];
    const customs = timeline.filter((e) => String(e.type).startsWith('customs.'));
    expect(customs.map((e) => [e.type, e.applied, e.previous_status])).toEqual([
      ['customs.information_requested', true, null],
      ['customs.screening_requested', false, 'assessment_complete'],
      ['customs.assessment_complete', true, 'information_requested'],
      ['customs.assessment_complete', false, 'assessment_complete'],
    ]);
    expect(customs[0]).toMatchObject({
      source: 'scan',
      customs: { reference: 'ENS-MRN-26DE0001', text: 'Commercial invoice for the cotton goods' },
    });

    // Deliveries: received (the container's scan), information_requested, assessment_complete for A; do_not_load, then
    // assessment_complete for B; container.departed; and nothing for what was only recorded or refused.
    const expected = 3 + 2 + 1;
    const got = await waitFor(() => hooks.receiver.at(path).length >= expected && hooks.receiver.at(path), {
      what: `${expected} deliveries`,
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(hooks.receiver.at(path)).toHaveLength(expected);
    const deliveries = verified(secret, got);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(expected);
    const ofA = deliveries.filter((d) => d.payload.tracking_number === a);
    // In the order they happened: the package's deliveries go one at a time.
    expect(ofA.map((d) => d.type)).toEqual(['package.received', 'customs.information_requested', 'customs.assessment_complete']);
    expect(ofA[1]?.payload).toEqual({
      tracking_number: a,
      carrier_barcode: pa.carrier_barcode,
      tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
      house_waybill: pa.house_waybill,
      container_id: containerId,
      manifest_id: manifestId,
      outcome: 'information_requested',
      previous_outcome: null,
      occurred_at: at(1),
      location: 'JFK',
      reference: 'ENS-MRN-26DE0001',
      text: 'Commercial invoice for the cotton goods',
    });
    const ofB = deliveries.filter((d) => d.payload.carrier_barcode === pb.carrier_barcode);
    expect(ofB.map((d) => [d.type, d.payload.tracking_number, d.payload.house_waybill, d.payload.previous_outcome])).toEqual([
      ['customs.do_not_load', null, pb.house_waybill, null],
      ['customs.assessment_complete', null, pb.house_waybill, 'do_not_load'],
    ]);
    expect(ofB[1]?.payload.location).toBeNull();
    expect(deliveries.filter((d) => d.type === 'container.departed').map((d) => d.payload.container_id)).toEqual([containerId]);
  });

  it('the simulator and a container’s own do_not_load; a daily manifest’s packages; amendments as package.amended', async () => {
    const shipper = await newAccount('Customs simulator');
    const token = shipper.tokens.test;
    const { path, secret } = await subscribed(token);
    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    const c = tn('CES');
    const manifestId: string = (await ok('POST', '/wf/manifest', token, containerSample(containerId, [c]))).ManifestID;
    await ok('POST', `/manifests/${manifestId}/simulate`, token, { status: 'received' });
    // The container itself on do_not_load: no departure, its packages' own outcomes untouched.
    const onHold = await ok('POST', `/manifests/${manifestId}/simulate`, token, { customs: 'do_not_load', text: 'Seal broken' });
    expect(onHold.customs_status).toBe('do_not_load');
    const refused = await request('POST', `/manifests/${manifestId}/simulate`, token, { status: 'arrived' });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'do_not_load', details: [{ path: 'container_id' }] });
    expect((await ok('GET', `/packages/${c}`, token)).customs_status).toBeNull();
    // Again: the outcome it has already is a no-op; one that cannot follow, 409.
    await ok('POST', `/manifests/${manifestId}/simulate`, token, { customs: 'do_not_load' });
    const illegal = await request('POST', `/manifests/${manifestId}/simulate`, token, { customs: 'released' });
    expect(illegal.status).toBe(409);
    expect(illegal.json.error).toMatchObject({ code: 'illegal_transition', current_customs_status: 'do_not_load' });
    // An amendment before it departs, then a reassessment and the departure; an amendment after is 409.
    const amended = await request('PATCH', `/packages/${c}`, token, { ToPhone: '+1 310 555 0199' });
    expect(amended.status, amended.text).toBe(200);
    await ok('POST', `/manifests/${manifestId}/simulate`, token, { customs: 'assessment_complete' });
    await ok('POST', `/manifests/${manifestId}/simulate`, token, { status: 'departed' });
    const late = await request('PATCH', `/packages/${c}`, token, { ToPhone: '+1 310 555 0100' });
    expect(late.status).toBe(409);
    expect(late.json.error).toMatchObject({ code: 'not_amendable', current_status: 'departed' });

    // A daily manifest: the outcome on each of its packages.
    const [d1, d2] = [tn('CED'), tn('CED')];
    const dailyId: string = (await ok('POST', '/wf/package', token, packageSample(d1, '2026-12-03T08:00:00Z'))).ManifestID;
    await ok('POST', '/wf/package', token, packageSample(d2, '2026-12-03T08:00:00Z'));
    await ok('POST', `/manifests/${dailyId}/simulate`, token, { customs: 'released' });
    for (const n of [d1, d2]) expect((await ok('GET', `/packages/${n}`, token)).customs_status).toBe('released');

    const expected = 1 + 1 + 1 + 1 + 2 + 1; // received (c), do_not_load, amended, assessment_complete, released ×2, departed
    const got = await waitFor(() => hooks.receiver.at(path).length >= expected && hooks.receiver.at(path), {
      what: `${expected} deliveries`,
      timeoutMs: 30_000,
    });
    await new Promise((r) => setTimeout(r, 500));
    const deliveries = verified(secret, got);
    expect(deliveries).toHaveLength(expected);
    // The container's own events are in its manifest's order; the package's amendment in the package's.
    const ofContainer = deliveries.filter((d) => d.payload.manifest_id === manifestId && d.payload.tracking_number === undefined);
    expect(ofContainer.map((d) => [d.type, d.payload.outcome ?? d.payload.status])).toEqual([
      ['customs.do_not_load', 'do_not_load'],
      ['customs.assessment_complete', 'assessment_complete'],
      ['container.departed', 'departed'],
    ]);
    expect(ofContainer[0]?.payload).toMatchObject({ container_id: containerId, text: 'Seal broken', previous_outcome: null });
    const pkg = await ok('GET', `/packages/${c}`, token);
    expect(deliveries.filter((d) => d.payload.tracking_number === c).map((d) => d.type)).toEqual([
      'package.received',
      'package.amended',
    ]);
    expect(deliveries.find((d) => d.type === 'package.amended')?.payload).toEqual({
      tracking_number: c,
      carrier_barcode: pkg.carrier_barcode,
      tracking_url: expect.stringMatching(/\/track\/test\/CB\d{13}$/), // a test package's link is the test page
      house_waybill: pkg.house_waybill,
      container_id: containerId,
      manifest_id: manifestId,
      status: 'received',
      occurred_at: expect.any(String),
      fields: ['ToPhone'],
    });
    expect(
      deliveries
        .filter((d) => d.type === 'customs.released')
        .map((d) => d.payload.tracking_number)
        .sort(),
    ).toEqual([d1, d2].sort());
  });

  it('refuses hostile customs fields in scans and simulate bodies one by one, never a 5xx', async () => {
    const shipper = await newAccount('Customs hostile');
    const token = shipper.tokens.test;
    const n = tn('CEH');
    await ok('POST', '/wf/package', token, packageSample(n));
    const hostile = await request('POST', '/ops/scans', ops, {
      scans: [
        {
          scan_id: `s-${randomUUID()}`,
          tracking_number: n,
          event: 'do_not_load',
          location: 'JFK',
          occurred_at: new Date().toISOString(),
          customs_text: 'x'.repeat(10_000),
        },
        {
          scan_id: `s-${randomUUID()}`,
          tracking_number: n,
          event: 'do_not_load',
          location: 'JFK',
          occurred_at: new Date().toISOString(),
          customs_reference: 'MRN\u0000',
        },
        {
          scan_id: `s-${randomUUID()}`,
          tracking_number: n,
          event: 'received',
          location: 'JFK',
          occurred_at: new Date().toISOString(),
          customs_text: 'not customs',
        },
        {
          scan_id: `s-${randomUUID()}`,
          tracking_number: n,
          event: 'do_not_load',
          location: 'JFK',
          occurred_at: new Date().toISOString(),
          customs_reference: { $gt: '' },
        },
        {
          scan_id: `s-${randomUUID()}`,
          tracking_number: n,
          event: 'cleared_by_magic',
          location: 'JFK',
          occurred_at: new Date().toISOString(),
        },
      ],
    });
    expect(hostile.status, hostile.text).toBe(200);
    expect(
      hostile.json.results.map((r: { result: string; error?: { code: string; details?: { path: string }[] } }) => [
        r.result,
        r.error?.code,
        r.error?.details?.[0]?.path,
      ]),
    ).toEqual([
      ['refused', 'validation_failed', 'customs_text'],
      ['refused', 'validation_failed', 'customs_reference'],
      ['refused', 'validation_failed', 'customs_text'],
      ['refused', 'validation_failed', 'customs_reference'],
      ['refused', 'unknown_event', undefined],
    ]);
    for (const body of [
      { customs: 'cleared' },
      { customs: 'do_not_load', status: 'received' },
      { customs: 'do_not_load', code: 'x' },
      { customs: 'do_not_load', text: 'x'.repeat(10_000) },
      { customs: 'do_not_load', text: 'a\u0000b' },
      { customs: 1e308 },
      {},
    ]) {
      const answer = await request('POST', `/packages/${n}/simulate`, token, body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(answer.json.error.code).toBe('validation_failed');
    }
    // Another account's package is not found; nothing of the above moved this one.
    const stranger = await newAccount('Customs stranger');
    expect((await request('POST', `/packages/${n}/simulate`, stranger.tokens.test, { customs: 'do_not_load' })).status).toBe(404);
    expect((await ok('GET', `/packages/${n}`, token)).customs_status).toBeNull();
  });
});
