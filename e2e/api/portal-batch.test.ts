import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api';
import { portalCall as portal, signUp, type PortalAnswer, type Shipper } from './support/portal';
import { containerSample } from './support/samples';
import { packIds } from '@/lib/schemas/package-selection';

// The Packages page's batch operations (count, cancel, labels, CSV) through the real server. Hostile: a batch that
// names another account's packages, or the same account's packages of the other environment, never acts on them;
// a filter selects within the page's account and environment only, even when the other's tracking numbers match it.

let owner: Shipper;
let stranger: Shipper;
const prefix = `BT${randomUUID().replaceAll('-', '').slice(0, 8).toUpperCase()}`;
const tns = [`${prefix}A`, `${prefix}B`, `${prefix}C`];
const barcode: Record<string, string> = {};

function expectError(answer: PortalAnswer, status: number, code: string, path?: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json?.error?.code, answer.text).toBe(code);
  if (path)
    expect(
      (answer.json.error.details as { path: string }[]).map((d) => d.path),
      answer.text,
    ).toContain(path);
}

async function barcodesOf(who: Shipper, env: 'test' | 'live') {
  const list = await portal(who, 'GET', `/portal-api/packages?tracking_number=${prefix}`, { env });
  expect(list.status, list.text).toBe(200);
  for (const p of list.json.data as { TrackingNumber: string; carrier_barcode: string }[])
    barcode[`${who === owner ? 'owner' : 'stranger'}-${env}-${p.TrackingNumber}`] = p.carrier_barcode;
}

const statusOf = async (who: Shipper, env: 'test' | 'live', tn: string) =>
  (await portal(who, 'GET', `/portal-api/packages/${tn}`, { env })).json.status as string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([signUp('Batcher'), signUp('Bystander')]);
  // The same tracking numbers in the owner's live environment and in the stranger's test environment.
  for (const [token, id] of [
    [owner.tokens.test, 'T'],
    [owner.tokens.live, 'L'],
    [stranger.tokens.test, 'S'],
  ] as const) {
    const created = await call('/wf/manifest', {
      token,
      body: containerSample(`ULD-${prefix}${id}`, tns),
      env: token === owner.tokens.live ? 'live' : 'test',
    });
    expect(created.status, created.text).toBe(200);
  }
  await Promise.all([barcodesOf(owner, 'test'), barcodesOf(owner, 'live'), barcodesOf(stranger, 'test')]);
  expect(Object.keys(barcode)).toHaveLength(9);
  // B is in the carrier's hands: not cancellable.
  const received = await portal(owner, 'POST', `/portal-api/packages/${tns[1]}/simulate`, { body: { status: 'received' } });
  expect(received.status, received.text).toBe(200);
}, 60_000);

describe('portal package batches', () => {
  it('counts what a filter matches in the page environment only', async () => {
    const count = await portal(owner, 'GET', `/portal-api/package-count?tracking_number=${prefix}`);
    expect(count.status, count.text).toBe(200);
    expect(count.json).toEqual({ count: 3, capped: false });
    expect((await portal(owner, 'GET', `/portal-api/package-count?tracking_number=${prefix}&status=received`)).json.count).toBe(
      1,
    );
    expectError(await portal(owner, 'GET', '/portal-api/package-count?status=lost'), 422, 'validation_failed', 'status');
    expectError(await portal(null, 'GET', '/portal-api/package-count'), 401, 'unauthorized');
  });

  it('refuses a malformed selection with a 422 naming the field, and a batch write without CSRF', async () => {
    const cases: [unknown, string][] = [
      [{}, 'carrier_barcodes'],
      [{ carrier_barcodes: [barcode[`owner-test-${tns[0]}`]], filter: {} }, 'carrier_barcodes'],
      [{ carrier_barcodes: [] }, 'carrier_barcodes'],
      [{ carrier_barcodes: ['CB000000000001'] }, 'carrier_barcodes[0]'],
      [{ carrier_barcodes: Array.from({ length: 5_001 }, () => barcode[`owner-test-${tns[0]}`]) }, 'carrier_barcodes'],
      [{ filter: { status: 'lost' } }, 'filter.status'],
      [{ filter: { limit: '5' } }, 'filter.limit'],
      [{ filter: { account_id: 'x' } }, 'filter.account_id'],
      // An unknown member is named in the message, at the body's path (the API's strict objects do the same).
      [{ ids: ['x'] }, '(body)'],
    ];
    for (const [body, path] of cases)
      expectError(await portal(owner, 'POST', '/portal-api/package-batch/cancel', { body }), 422, 'validation_failed', path);
    expectError(
      await portal(owner, 'POST', '/portal-api/package-batch/labels?format=png', { body: { filter: {} } }),
      422,
      'validation_failed',
      'format',
    );
    expectError(
      await portal(owner, 'POST', '/portal-api/package-batch/cancel', {
        csrf: null,
        body: { carrier_barcodes: [barcode[`owner-test-${tns[0]}`]] },
      }),
      403,
      'forbidden',
    );
    expect(await statusOf(owner, 'test', tns[0])).toBe('manifested');
  });

  it("labels and CSV of a selection hold the account's own packages in the page environment, never another's", async () => {
    const body = {
      carrier_barcodes: [
        barcode[`owner-test-${tns[0]}`],
        barcode[`owner-test-${tns[2]}`],
        barcode[`owner-live-${tns[0]}`],
        barcode[`stranger-test-${tns[1]}`],
      ],
    };
    const zpl = await portal(owner, 'POST', '/portal-api/package-batch/labels?format=zpl', { body });
    expect(zpl.status, zpl.text).toBe(200);
    expect(zpl.headers.get('content-type')).toMatch(/zpl/);
    expect(zpl.text.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.text).toContain(barcode[`owner-test-${tns[0]}`]);
    expect(zpl.text).toContain(barcode[`owner-test-${tns[2]}`]);
    expect(zpl.text).not.toContain(barcode[`owner-live-${tns[0]}`]);
    expect(zpl.text).not.toContain(barcode[`stranger-test-${tns[1]}`]);
    const pdf = await portal(owner, 'POST', '/portal-api/package-batch/labels?format=pdf', { body });
    expect(pdf.status).toBe(200);
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    // Only others' packages: nothing to print.
    expectError(
      await portal(owner, 'POST', '/portal-api/package-batch/labels', {
        body: { carrier_barcodes: [barcode[`stranger-test-${tns[0]}`]] },
      }),
      404,
      'not_found',
    );

    const csv = await portal(owner, 'POST', '/portal-api/package-batch/export', { body });
    expect(csv.status, csv.text).toBe(200);
    const lines = csv.text.split('\r\n').filter(Boolean);
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual([
      barcode[`owner-test-${tns[2]}`],
      barcode[`owner-test-${tns[0]}`],
    ]);
    const byFilter = await portal(owner, 'POST', '/portal-api/package-batch/export', {
      body: { filter: { tracking_number: prefix } },
    });
    expect(byFilter.text.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(byFilter.text).not.toContain(barcode[`stranger-test-${tns[0]}`]);
    expect(byFilter.text).not.toContain(barcode[`owner-live-${tns[0]}`]);
  });

  it("download links carry packed ids or the filters, and select only the account's own packages of the page environment", async () => {
    const ids = packIds([barcode[`owner-test-${tns[2]}`], barcode[`owner-live-${tns[2]}`], barcode[`stranger-test-${tns[2]}`]]);
    const zpl = await portal(owner, 'GET', `/portal-api/package-batch/labels?format=zpl&ids=${ids}`);
    expect(zpl.status, zpl.text).toBe(200);
    expect(zpl.headers.get('content-disposition')).toMatch(/^attachment; filename="labels-test-\d{4}-\d{2}-\d{2}\.zpl"$/);
    expect(zpl.text.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.text).toContain(barcode[`owner-test-${tns[2]}`]);
    const csv = await portal(owner, 'GET', `/portal-api/package-batch/export?ids=${ids}`);
    expect(
      csv.text
        .split('\r\n')
        .filter(Boolean)
        .map((l) => l.split(',')[1]),
    ).toEqual(['carrier_barcode', barcode[`owner-test-${tns[2]}`]]);
    const byFilter = await portal(owner, 'GET', `/portal-api/package-batch/labels?format=zpl&tracking_number=${prefix}`);
    expect(byFilter.text.match(/\^XA/g)).toHaveLength(3);
    // Malformed: not base 36, a partial id, over the most a link holds, ids with filters, an unknown parameter.
    for (const query of [
      'ids=!!!!!!!!',
      'ids=abc',
      `ids=${'0'.repeat(8 * 1_001)}`,
      `ids=${ids}&status=manifested`,
      'ids=zzzzzzzz',
    ])
      expectError(await portal(owner, 'GET', `/portal-api/package-batch/export?${query}`), 422, 'validation_failed', 'ids');
    expectError(await portal(owner, 'GET', '/portal-api/package-batch/export?owner=x'), 422, 'validation_failed', 'owner');
    expectError(await portal(null, 'GET', `/portal-api/package-batch/labels?ids=${ids}`), 401, 'unauthorized');
  });

  it("cancels the account's own cancellable packages, says why the others were not, and never touches another's or the other environment's", async () => {
    const cancel = await portal(owner, 'POST', '/portal-api/package-batch/cancel', {
      body: {
        carrier_barcodes: [
          barcode[`owner-test-${tns[0]}`],
          barcode[`owner-test-${tns[1]}`],
          barcode[`owner-live-${tns[2]}`],
          barcode[`stranger-test-${tns[0]}`],
        ],
      },
    });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json.requested).toBe(4);
    expect(cancel.json.cancelled).toBe(1);
    expect(cancel.json.already_cancelled).toBe(0);
    const why = Object.fromEntries(
      (cancel.json.not_cancelled as { carrier_barcode: string; code: string }[]).map((f) => [f.carrier_barcode, f.code]),
    );
    expect(why).toEqual({
      [barcode[`owner-test-${tns[1]}`]]: 'not_cancellable',
      [barcode[`owner-live-${tns[2]}`]]: 'not_found',
      [barcode[`stranger-test-${tns[0]}`]]: 'not_found',
    });
    expect(await statusOf(owner, 'test', tns[0])).toBe('cancelled');
    expect(await statusOf(owner, 'test', tns[1])).toBe('received');
    for (const tn of tns) {
      expect(await statusOf(owner, 'live', tn)).toBe('manifested');
      expect(await statusOf(stranger, 'test', tn)).toBe('manifested');
    }

    // By filter: everything of the prefix in the owner's test environment; the stranger's and live ones match the
    // same tracking numbers and stay as they were. Sent again: already cancelled, nothing new.
    const byFilter = await portal(owner, 'POST', '/portal-api/package-batch/cancel', {
      body: { filter: { tracking_number: prefix } },
    });
    expect(byFilter.status, byFilter.text).toBe(200);
    expect(byFilter.json).toMatchObject({ requested: 3, cancelled: 1, already_cancelled: 1 });
    expect(byFilter.json.not_cancelled).toHaveLength(1);
    expect(byFilter.json.not_cancelled[0]).toMatchObject({ TrackingNumber: tns[1], code: 'not_cancellable' });
    expect(await statusOf(owner, 'test', tns[2])).toBe('cancelled');
    for (const tn of tns) {
      expect(await statusOf(owner, 'live', tn)).toBe('manifested');
      expect(await statusOf(stranger, 'test', tn)).toBe('manifested');
    }
    // The stranger's own filter batch sees none of the owner's.
    const theirs = await portal(stranger, 'POST', '/portal-api/package-batch/cancel', {
      body: { filter: { tracking_number: prefix, status: 'received' } },
    });
    expect(theirs.json).toEqual({ requested: 0, cancelled: 0, already_cancelled: 0, not_cancelled: [] });
  });

  it("a live page cannot cancel the test environment's package by its barcode", async () => {
    const answer = await portal(owner, 'POST', '/portal-api/package-batch/cancel', {
      env: 'live',
      body: { carrier_barcodes: [barcode[`owner-test-${tns[2]}`]] },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.not_cancelled[0]).toMatchObject({ code: 'not_found' });
    expect(await statusOf(owner, 'test', tns[2])).toBe('cancelled');
    expect(await statusOf(owner, 'live', tns[2])).toBe('manifested');
  });
});
