import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { containerDetail, containerSample, packageSample } from './support/samples';

/** A container's answer: the contract's fields and its charges' totals (money.md). */
const CONTAINER_ANSWER = {
  IsSuccess: 'true',
  ManifestID: expect.stringMatching(/^MAN-/),
  ChargeTotal: expect.stringMatching(/^\d+\.\d{2}$/),
  Currency: 'USD',
  PricedCount: expect.any(Number),
  UnpricedCount: expect.any(Number),
};

// Customs declarations on packages (daily and in containers) and air-cargo data on containers, through the production
// server: stored as parsed, read back by GET /packages and GET /manifests, idempotent on an identical retry, a 409
// on a changed one, and every refusal a 422 naming the field's path.

const GET = { method: 'GET' } as const;
const IGNORED = 'is not a field of this operation: ignored, not stored';

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Customs');
});

const ITEM = {
  Description: 'Cotton T-shirt',
  Quantity: 2,
  Value: '12.5',
  Weight: 0.4,
  WeightUnit: 'kg',
  HSCode: '6109.10',
  OriginCountry: 'cn',
};
const CUSTOMS = {
  ContentsType: 'merchandise',
  Incoterm: 'DDP',
  Currency: 'usd',
  ExporterEORI: 'GB123456789000',
  IOSS: 'IM2760000742',
  HouseWaybill: 'HWB0001',
  Items: [ITEM, { Description: 'Leather wallet', Quantity: 1, Value: 30, HSCode: '420232', OriginCountry: 'IT' }],
};
/** CUSTOMS as parsed: what is stored and read back. */
const STORED = {
  ContentsType: 'merchandise',
  Incoterm: 'DDP',
  Currency: 'USD',
  ExporterEORI: 'GB123456789000',
  IOSS: 'IM2760000742',
  HouseWaybill: 'HWB0001',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '12.50',
      Weight: '0.4',
      WeightUnit: 'kg',
      HSCode: '610910',
      OriginCountry: 'CN',
    },
    { Description: 'Leather wallet', Quantity: 1, Value: '30.00', HSCode: '420232', OriginCountry: 'IT' },
  ],
};

const dailyWith = (tn: string, customs: unknown) => {
  const body = packageSample(tn);
  return { package: { ...body.package, Customs: customs } };
};
const containerId = () => `ULD-${randomUUID().slice(0, 8)}`;

describe('a daily package with a customs declaration', () => {
  it('is stored as parsed and read back; an identical retry is 200, a changed declaration 409', async () => {
    const tn = tracking('CUD');
    const accepted = await call('/wf/package', { token: acme.tokens.test, body: dailyWith(tn, CUSTOMS) });
    expect(accepted.status, accepted.text).toBe(200);
    // The contract's fields, and what the package costs (its charge).
    expect(accepted.json).toEqual({
      IsSuccess: true,
      ManifestID: expect.stringMatching(/^MAN-/),
      TrackingNumber: tn,
      charge: expect.objectContaining({ currency: 'USD' }),
    });

    const read = await call(`/packages/${tn}`, { ...GET, token: acme.tokens.test });
    expect(read.status, read.text).toBe(200);
    expect(read.json.Customs).toEqual(STORED);
    const stored = await db.package.findFirstOrThrow({ where: { accountId: acme.accountId, trackingNumber: tn } });
    expect((stored.data as { Customs?: unknown }).Customs).toEqual(STORED);

    const again = await call('/wf/package', { token: acme.tokens.test, body: dailyWith(tn, CUSTOMS) });
    expect(again.status, again.text).toBe(200);
    expect(again.json.ManifestID).toBe(accepted.json.ManifestID);
    // The same declaration written another way ("12.50" for 12.5, lower-case codes) is the same package.
    const sameMeaning = await call('/wf/package', {
      token: acme.tokens.test,
      body: dailyWith(tn, { ...CUSTOMS, Currency: 'USD', Items: [{ ...ITEM, Value: '12.50' }, CUSTOMS.Items[1]] }),
    });
    expect(sameMeaning.status, sameMeaning.text).toBe(200);

    for (const changed of [
      { ...CUSTOMS, Items: [{ ...ITEM, Quantity: 3 }, CUSTOMS.Items[1]] },
      { ...CUSTOMS, Incoterm: 'DAP' },
      undefined,
    ]) {
      const conflict = await call('/wf/package', { token: acme.tokens.test, body: dailyWith(tn, changed) });
      const error = expectError(conflict, 409, 'conflict');
      expect(conflict.json.IsSuccess).toBe(false);
      expect(error.details).toEqual([{ path: 'package.TrackingNumber', message: 'already accepted with different data' }]);
    }
    const after = await call(`/packages/${tn}`, { ...GET, token: acme.tokens.test });
    expect(after.json.Customs).toEqual(STORED);
    expect(await db.package.count({ where: { accountId: acme.accountId, trackingNumber: tn } })).toBe(1);
  });

  it('a package without Customs is answered and stored as before (no Customs key)', async () => {
    const tn = tracking('CUN');
    const accepted = await call('/wf/package', { token: acme.tokens.test, body: packageSample(tn) });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).not.toHaveProperty('warnings');
    const read = await call(`/packages/${tn}`, { ...GET, token: acme.tokens.test });
    expect(read.json).not.toHaveProperty('Customs');
    // null means no value, as for every field ("" too: lib/schemas/customs.test.ts).
    const blank = await call('/wf/package', { token: acme.tokens.test, body: dailyWith(tracking('CUB'), null) });
    expect(blank.status, blank.text).toBe(200);
  });

  it('names unknown fields inside the declaration in warnings, and stores none of them', async () => {
    const tn = tracking('CUW');
    const body = dailyWith(tn, { ...CUSTOMS, Insurance: true, Items: [{ ...ITEM, Colour: 'red' }] });
    const accepted = await call('/wf/package', { token: acme.tokens.test, body });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.warnings).toEqual([
      { path: 'package.Customs.Items[0].Colour', message: IGNORED },
      { path: 'package.Customs.Insurance', message: IGNORED },
    ]);
    const read = await call(`/packages/${tn}`, { ...GET, token: acme.tokens.test });
    expect(read.json.Customs).not.toHaveProperty('Insurance');
    expect(read.json.Customs.Items[0]).not.toHaveProperty('Colour');
  });

  it('refuses a bad declaration with 422 naming every failing field, and stores nothing', async () => {
    const tn = tracking('CUE');
    const body = dailyWith(tn, {
      ...CUSTOMS,
      Currency: 'JPY',
      ImporterEORI: 'DE 123',
      Items: [
        { ...ITEM, HSCode: '61091A', Value: '1500' },
        { ...ITEM, Description: 'gift', Value: '1500.5' },
        { ...ITEM, Value: '-1', Quantity: 0, OriginCountry: 'QQ', Description: 'Cotton\u0000T-shirt' },
      ],
    });
    const refused = await call('/wf/package', { token: acme.tokens.test, body });
    const error = expectError(refused, 422, 'validation_failed');
    expect(refused.json.IsSuccess).toBe(false);
    expect(error.details?.map((d) => d.path)).toEqual([
      'package.Customs.ImporterEORI',
      'package.Customs.Items[0].HSCode',
      'package.Customs.Items[1].Description',
      'package.Customs.Items[1].Value',
      'package.Customs.Items[2].Description',
      'package.Customs.Items[2].Quantity',
      'package.Customs.Items[2].Value',
      'package.Customs.Items[2].OriginCountry',
    ]);
    expect(error.details?.find((d) => d.path === 'package.Customs.Items[1].Value')?.message).toBe(
      'must be a whole amount: JPY has no minor unit',
    );
    expect(error.details?.find((d) => d.path === 'package.Customs.Items[1].Description')?.message).toMatch(
      /^is too vague for customs: .*"Cotton T-shirt"/,
    );
    expect(await db.package.count({ where: { accountId: acme.accountId, trackingNumber: tn } })).toBe(0);
  });

  it('refuses one item past the maximum with one error, and a declaration that is not an object', async () => {
    const many = await call('/wf/package', {
      token: acme.tokens.test,
      body: dailyWith(tracking('CUM'), { ...CUSTOMS, Items: Array.from({ length: 101 }, () => ITEM) }),
    });
    expect(expectError(many, 422, 'validation_failed').details).toEqual([
      { path: 'package.Customs.Items', message: 'must hold at most 100 items per parcel (got 101)' },
    ]);
    const hundred = await call('/wf/package', {
      token: acme.tokens.test,
      body: dailyWith(tracking('CUH'), { ...CUSTOMS, Items: Array.from({ length: 100 }, () => ITEM) }),
    });
    expect(hundred.status, hundred.text).toBe(200);
    const text = await call('/wf/package', { token: acme.tokens.test, body: dailyWith(tracking('CUT'), 'cotton shirts') });
    expect(expectError(text, 422, 'validation_failed').details).toEqual([
      { path: 'package.Customs', message: 'must be an object: the customs declaration' },
    ]);
  });
});

describe('a container with air-cargo data and customs on its packages', () => {
  const AIR = {
    ULD: 'ake 12345 xh',
    SealNumber: 'SL-004711',
    FlightNumber: 'lh 400',
    FlightDate: '2026-11-24',
    OriginAirport: 'jfk',
    DestinationAirport: 'FRA',
    Security: { Status: 'SPX', ScreeningMethod: 'xry, edd', IssuedBy: 'US/RA/00123' },
  };

  it('stores the header and each package its declaration, reads them back; identical retry 200, changed 409', async () => {
    const id = containerId();
    const [a, b] = [tracking('CCA'), tracking('CCB')];
    const body = {
      ...containerSample(id),
      ...AIR,
      ContainerDetails: [{ ...containerDetail(a), Customs: CUSTOMS }, containerDetail(b)],
    };
    const accepted = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ ...CONTAINER_ANSWER, PackageCount: 2 });

    const pkg = await call(`/packages/${a}`, { ...GET, token: acme.tokens.test });
    expect(pkg.status, pkg.text).toBe(200);
    expect(pkg.json).toMatchObject({ manifest_type: 'container', ContainerID: id, Customs: STORED });
    const plain = await call(`/packages/${b}`, { ...GET, token: acme.tokens.test });
    expect(plain.json).not.toHaveProperty('Customs');
    const manifest = await call(`/manifests/${accepted.json.ManifestID}`, { ...GET, token: acme.tokens.test });
    expect(manifest.json).toMatchObject({
      ContainerID: id,
      ULD: 'AKE12345XH',
      SealNumber: 'SL-004711',
      FlightNumber: 'LH400',
      FlightDate: '2026-11-24',
      OriginAirport: 'JFK',
      DestinationAirport: 'FRA',
      Security: { Status: 'SPX', ScreeningMethod: 'XRY EDD', IssuedBy: 'US/RA/00123' },
    });

    const again = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(again.status, again.text).toBe(200);
    expect(again.json.ManifestID).toBe(accepted.json.ManifestID);
    for (const changed of [
      { ...body, ContainerDetails: [{ ...containerDetail(a), Customs: { ...CUSTOMS, Currency: 'EUR' } }, containerDetail(b)] },
      { ...body, Security: { ...AIR.Security, Status: 'SCO' } },
    ]) {
      const conflict = await call('/wf/manifest', { token: acme.tokens.test, body: changed });
      const error = expectError(conflict, 409, 'conflict');
      expect(conflict.json.IsSuccess).toBe('false');
      expect(error.details).toEqual([{ path: 'ContainerID', message: `already used by ${accepted.json.ManifestID}` }]);
    }
    expect((await call(`/packages/${a}`, { ...GET, token: acme.tokens.test })).json.Customs).toEqual(STORED);
  });

  it('stores a ULD-shaped ContainerID as given, and reads it back as the ULD', async () => {
    const id = `AKE${String(Math.floor(Math.random() * 90_000) + 10_000)}XH`;
    const accepted = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(id, [tracking('CCU')]) });
    expect(accepted.status, accepted.text).toBe(200);
    const row = await db.containerManifest.findUniqueOrThrow({ where: { id: accepted.json.ManifestID } });
    expect(row.containerId).toBe(id);
    expect(row.header).not.toHaveProperty('ULD');
    // Read back, the ContainerID is the ULD; a ContainerID of no ULD shape reads with none.
    const read = await call(`/manifests/${accepted.json.ManifestID}`, { ...GET, token: acme.tokens.test });
    expect(read.json).toMatchObject({ ContainerID: id, ULD: id });
    const plain = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(containerId(), [tracking('CCV')]),
    });
    expect((await call(`/manifests/${plain.json.ManifestID}`, { ...GET, token: acme.tokens.test })).json).not.toHaveProperty(
      'ULD',
    );
  });

  it('names a failing field by package and item, and header fields by name', async () => {
    const details = [0, 1, 2, 3].map((i) => ({
      ...containerDetail(tracking('CCE')),
      Customs: { ...CUSTOMS, HouseWaybill: `HWB000${i}`, Items: [{ ...ITEM, Value: i === 3 ? '1.005' : '1' }] },
    }));
    const refused = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: { ...containerSample(containerId()), ContainerDetails: details },
    });
    expect(expectError(refused, 422, 'validation_failed').details).toEqual([
      { path: 'ContainerDetails[3].Customs.Items[0].Value', message: 'must have at most 2 decimal places for USD' },
    ]);
    expect(refused.json.IsSuccess).toBe('false');

    const header = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: {
        ...containerSample(containerId()),
        ULD: 'XYZ12345XH',
        FlightNumber: 'LH40000',
        FlightDate: '2026-02-30',
        OriginAirport: 'JF',
        Security: { ScreeningMethod: 'XRY' },
      },
    });
    expect(expectError(header, 422, 'validation_failed').details?.map((d) => d.path)).toEqual([
      'ULD',
      'FlightNumber',
      'FlightDate',
      'OriginAirport',
      'Security.Status',
    ]);
  });

  it('names unknown fields in Security and in a package declaration', async () => {
    const body = {
      ...containerSample(containerId()),
      Security: { Status: 'SHR', Regulated: true },
      ContainerDetails: [{ ...containerDetail(tracking('CCW')), Customs: { ...CUSTOMS, Items: [{ ...ITEM, Colour: 'red' }] } }],
    };
    const accepted = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.warnings).toEqual([
      { path: 'ContainerDetails[0].Customs.Items[0].Colour', message: IGNORED },
      { path: 'Security.Regulated', message: IGNORED },
    ]);
  });

  /** POSTs a 5,000-package container, `declared` of them with a one-item declaration, three times: the times in ms. */
  async function fiveThousand(declared: number): Promise<number[]> {
    const timings: number[] = [];
    for (let run = 0; run < 3; run++) {
      const details = Array.from({ length: 5_000 }, (_, i) => ({
        ...containerDetail(tracking(`C${run}`)),
        ...(i < declared
          ? { Customs: { ContentsType: 'merchandise', Currency: 'USD', Items: [{ ...ITEM, Value: `${(i % 100) + 1}.99` }] } }
          : {}),
      }));
      const text = JSON.stringify({ ...containerSample(containerId()), ...AIR, ContainerDetails: details });
      expect(text.length).toBeLessThan(5 * 1024 * 1024);
      // Timed as a client sees it: one POST and its answer (call() would add its own contract check of the body).
      const started = performance.now();
      const response = await fetch(baseUrl + pathFor('test', '/wf/manifest'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Token ${acme.tokens.test}` },
        body: text,
      });
      const answer = await response.text();
      timings.push(performance.now() - started);
      expect(response.status, answer.slice(0, 500)).toBe(200);
      expect(JSON.parse(answer)).toEqual({ ...CONTAINER_ANSWER, PackageCount: 5_000 });
    }
    const sorted = [...timings].sort((x, y) => x - y);
    console.log(
      `5,000 packages, ${declared} with a declaration: p50 ${sorted[1]?.toFixed(0)} ms (${timings.map((t) => t.toFixed(0)).join(', ')})`,
    );
    const last = await db.containerPackage.findFirstOrThrow({
      where: { accountId: acme.accountId, position: declared - 1 },
      orderBy: { id: 'desc' },
    });
    expect(last.detail).toMatchObject({
      Customs: { Currency: 'USD', Items: [{ Value: `${((declared - 1) % 100) + 1}.99`, HSCode: '610910' }] },
    });
    return timings;
  }

  it('accepts a 5,000-package container with a one-item declaration on every package (timed)', async () => {
    await fiveThousand(5_000);
  }, 120_000);
});
