import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { call, expectError, newAccount, tracking, type TestAccount } from './support/api';
import { containerDetail, containerSample, packageSample } from './support/samples';

// PATCH /packages/{TrackingNumber}: a package's house data (customs declaration, consignee) amended until it leaves,
// with its event, its audit record and the same field rules as at acceptance; every refusal a 4xx naming the field.

const GET = { method: 'GET' } as const;
const PATCH = { method: 'PATCH' } as const;
const ISSUED = /^H\d{11}$/;
const ITEM = { Description: 'Cotton T-shirt', Quantity: 2, Value: '12.5', HSCode: '6109.10', OriginCountry: 'cn' };

let acme: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  [acme, other] = await Promise.all([newAccount('Amendments'), newAccount('Amendments other')]);
});

const amend = (identifier: string, body: unknown, account = acme, env: 'test' | 'live' = 'test') =>
  call(`/packages/${encodeURIComponent(identifier)}`, { ...PATCH, token: account.tokens[env], env, body });
const read = async (identifier: string) => (await call(`/packages/${identifier}`, { ...GET, token: acme.tokens.test })).json;
const timeline = async (identifier: string) =>
  (await call(`/packages/${identifier}/events`, { ...GET, token: acme.tokens.test })).json.data as Record<string, unknown>[];

async function daily(): Promise<string> {
  const n = tracking('AMD');
  const accepted = await call('/wf/package', { token: acme.tokens.test, body: packageSample(n) });
  expect(accepted.status, accepted.text).toBe(200);
  return n;
}

async function container(count: number) {
  const numbers = Array.from({ length: count }, () => tracking('AMC'));
  const accepted = await call('/wf/manifest', {
    token: acme.tokens.test,
    body: { ...containerSample(`ULD-${randomUUID().slice(0, 8)}`), ContainerDetails: numbers.map((n) => containerDetail(n)) },
  });
  expect(accepted.status, accepted.text).toBe(200);
  return { numbers, manifestId: accepted.json.ManifestID as string };
}

async function audits(target: string) {
  const { rows } = await pgPool().query<{ action: string; details: Record<string, unknown> }>(
    `SELECT action, details FROM audit_events WHERE account_id = $1 AND target_id = $2 ORDER BY id`,
    [acme.accountId, target],
  );
  return rows;
}

describe('PATCH /packages/{TrackingNumber}', () => {
  it('amends the consignee and merges the declaration, checked as at acceptance, with an event and an audit record', async () => {
    const n = await daily();
    const before = await read(n);
    const answer = await amend(n, { ToPhone: '+1 310 555 0101', Customs: { Currency: 'usd', Items: [ITEM], Incoterm: 'DDP' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({
      TrackingNumber: n,
      ToPhone: '+1 310 555 0101',
      house_waybill: before.house_waybill,
      Customs: {
        Currency: 'USD',
        Incoterm: 'DDP',
        Items: [{ Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' }],
      },
    });
    // A merge patch: a field sent replaces, null removes, what is not sent stays.
    const merged = await amend(n, { Customs: { Incoterm: null, ContentsType: 'gift' } });
    expect(merged.json.Customs).toEqual({ ...answer.json.Customs, Incoterm: undefined, ContentsType: 'gift' });
    expect(merged.json.Customs).not.toHaveProperty('Incoterm');
    const events = (await timeline(n)).filter((e) => e.type === 'package.amended');
    expect(events.map((e) => [e.source, e.status, e.amended_fields])).toEqual([
      ['api', 'manifested', ['Customs.Incoterm', 'Customs.Currency', 'Customs.Items', 'ToPhone']],
      ['api', 'manifested', ['Customs.Incoterm', 'Customs.ContentsType']],
    ]);
    const records = await audits(n);
    expect(records.map((r) => r.action)).toEqual(['package.amended', 'package.amended']);
    expect(records[0]?.details).toMatchObject({ fields: ['Customs.Incoterm', 'Customs.Currency', 'Customs.Items', 'ToPhone'] });
    // The package as accepted stays its idempotency key.
    expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(n) })).status).toBe(200);
  });

  it('an amendment that changes nothing records nothing; the package’s own issued house waybill sent back is no change', async () => {
    const n = await daily();
    const { house_waybill: issued, ToName } = await read(n);
    expect(issued).toMatch(ISSUED);
    const same = await amend(n, { ToName, Customs: { HouseWaybill: issued.toLowerCase() } });
    expect(same.status, same.text).toBe(200);
    expect(same.json.house_waybill).toBe(issued);
    expect(same.json).not.toHaveProperty('Customs');
    expect((await timeline(n)).filter((e) => e.type === 'package.amended')).toEqual([]);
    expect(await audits(n)).toEqual([]);
  });

  it('gives a new house waybill, and issues a never-used one when a given one is removed', async () => {
    const n = await daily();
    const { house_waybill: issued } = await read(n);
    const given = await amend(n, { Customs: { HouseWaybill: 'fwd-amend'.replace('-', '') } });
    expect(given.status, given.text).toBe(200);
    expect(given.json.house_waybill).toBe('FWDAMEND');
    const removed = await amend(n, { Customs: { HouseWaybill: null } });
    expect(removed.json.house_waybill).toMatch(ISSUED);
    expect(removed.json.house_waybill).not.toBe(issued);
    const events = (await timeline(n)).filter((e) => e.type === 'package.amended');
    expect(events).toHaveLength(2);
    expect((await audits(n)).map((r) => r.details.previous_house_waybill)).toEqual([issued, 'FWDAMEND']);
    // The carrier's own form is not the shipper's to give.
    const reserved = await amend(n, { Customs: { HouseWaybill: 'H00000000000' } });
    expect(expectError(reserved, 422, 'validation_failed').details?.[0]?.path).toBe('Customs.HouseWaybill');
  });

  it('refuses a house waybill another house of the container has (409 naming it), by tracking number or carrier barcode', async () => {
    const { numbers } = await container(2);
    const [first, second] = numbers as [string, string];
    expect((await amend(first, { Customs: { HouseWaybill: 'TAKEN1' } })).status).toBe(200);
    const { carrier_barcode } = await read(second);
    const taken = await amend(carrier_barcode, { Customs: { HouseWaybill: 'taken1' } });
    expect(expectError(taken, 409, 'conflict').details).toEqual([
      { path: 'Customs.HouseWaybill', message: `already the house waybill of ContainerDetails[0] (${first})` },
    ]);
    expect((await read(second)).house_waybill).toMatch(ISSUED);
  });

  it('is 409 not_amendable once the container departed, the package is on its way, cancelled, or its manifest closed', async () => {
    const { numbers, manifestId } = await container(1);
    const walked = await call(`/manifests/${manifestId}/simulate`, { token: acme.tokens.test, body: { status: 'received' } });
    expect(walked.status, walked.text).toBe(200);
    // Received: still on the ground, still amendable.
    expect((await amend(numbers[0], { ToPhone: '+1 555 0100 123' })).status).toBe(200);
    expect(
      (await call(`/manifests/${manifestId}/simulate`, { token: acme.tokens.test, body: { status: 'departed' } })).status,
    ).toBe(200);
    const late = await amend(numbers[0], { ToPhone: '+1 555 0100 999' });
    expect(expectError(late, 409, 'not_amendable')).toMatchObject({ current_status: 'departed' });
    expect((await read(numbers[0])).ToPhone).toBe('+1 555 0100 123');

    const moving = await daily();
    await call(`/packages/${moving}/simulate`, { token: acme.tokens.test, body: { status: 'in_transit' } });
    expect(expectError(await amend(moving, { ToPhone: '+1 555 0100 999' }), 409, 'not_amendable')).toMatchObject({
      current_status: 'in_transit',
    });
    const cancelled = await daily();
    await call(`/packages/${cancelled}/cancel`, { token: acme.tokens.test });
    expectError(await amend(cancelled, { ToPhone: '+1 555 0100 999' }), 409, 'not_amendable');
    const closing = tracking('AMX');
    const accepted = await call('/wf/package', { token: acme.tokens.test, body: packageSample(closing, '2026-12-09T08:00:00Z') });
    await call(`/manifests/${accepted.json.ManifestID}/close`, { token: acme.tokens.test });
    expect(expectError(await amend(closing, { ToPhone: '+1 555 0100 999' }), 409, 'not_amendable')).toMatchObject({
      current_status: 'closed',
    });
  });

  it('answers hostile input with a 4xx envelope naming the field, and another account’s package with 404', async () => {
    const n = await daily();
    const cases: [unknown, number, string | undefined][] = [
      [{}, 422, '(body)'],
      [[], 422, '(body)'],
      [null, 422, '(body)'],
      ['x', 422, '(body)'],
      [{ ShipmentDescription: 'Other goods' }, 422, 'ShipmentDescription'],
      [{ __proto__: { ToName: 'x' }, TrackingNumber: 'X' }, 422, 'TrackingNumber'],
      [{ ToName: 'Jane\u0000Doe' }, 422, 'ToName'],
      [{ ToName: 'x'.repeat(10_000) }, 422, 'ToName'],
      [{ ToEmail: 'not an address' }, 422, 'ToEmail'],
      [{ ToPostalCode: null }, 422, 'ToPostalCode'],
      [{ ToPostalCode: 1e308 }, 422, 'ToPostalCode'],
      [{ Customs: 5 }, 422, 'Customs'],
      [{ Customs: { Currency: 'USD', Items: [{ ...ITEM, Value: 1e308 }] } }, 422, 'Customs.Items[0].Value'],
      [{ Customs: { Currency: 'USD', Items: [{ ...ITEM, Value: '-1' }] } }, 422, 'Customs.Items[0].Value'],
      [{ Customs: { Currency: 'USD', Items: [{ ...ITEM, HSCode: '61O910' }] } }, 422, 'Customs.Items[0].HSCode'],
      [{ Customs: { Currency: 'XYZ', Items: [ITEM] } }, 422, 'Customs.Currency'],
      [{ Customs: { Currency: 'USD', Items: [{ ...ITEM, Description: 'gift' }] } }, 422, 'Customs.Items[0].Description'],
      [
        { Customs: { Currency: 'USD', Items: [{ ...ITEM, Description: 'd'.repeat(10_000) }] } },
        422,
        'Customs.Items[0].Description',
      ],
      [{ Customs: { Currency: 'USD', Items: Array(101).fill(ITEM) } }, 422, 'Customs.Items'],
      [{ Customs: { Items: [ITEM] } }, 422, 'Customs.Currency'],
      [{ Customs: { HouseWaybill: '\ud800' } }, 422, 'Customs.HouseWaybill'],
    ];
    for (const [body, status, path] of cases) {
      const answer = await call(`/packages/${n}`, { ...PATCH, token: acme.tokens.test, rawBody: JSON.stringify(body) });
      const error = expectError(answer, status, 'validation_failed');
      expect(error.details?.[0]?.path, JSON.stringify(body).slice(0, 80)).toBe(path);
    }
    // Nothing of it was written.
    expect((await timeline(n)).filter((e) => e.type === 'package.amended')).toEqual([]);
    expectError(await amend(n, { ToPhone: '+1 555 0100 123' }, other), 404, 'not_found');
    expectError(await amend(n, { ToPhone: '+1 555 0100 123' }, acme, 'live'), 404, 'not_found');
    expectError(await amend('NO-SUCH-PACKAGE', { ToPhone: '+1 555 0100 123' }), 404, 'not_found');
    const invalidJson = await call(`/packages/${n}`, { ...PATCH, token: acme.tokens.test, rawBody: '{' });
    expectError(invalidJson, 400, 'invalid_json');
  });
});
