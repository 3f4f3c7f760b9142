import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { exportManifestCsv } from '@/lib/spreadsheets/export-manifest-csv';
import { exportPackagesCsv } from '@/lib/spreadsheets/export-packages-csv';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { CUSTOMS_ITEM, containerDetail, containerSample, euContainerSample, packageSample } from './support/samples';

// House waybills (given, or issued by us) and customs readiness per destination regime, through the production
// server: GET /manifests/{id}/customs, the house waybill in reads and CSV exports, hostile ids and another account's.

const GET = { method: 'GET' } as const;
const ISSUED = /^H\d{11}$/;

let acme: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  [acme, other] = await Promise.all([newAccount('Readiness'), newAccount('Readiness other')]);
});

const ITEM = CUSTOMS_ITEM;
const containerId = () => `ULD-${randomUUID().slice(0, 8)}`;

/** A JFK → FRA container whose houses go to Berlin, every ICS2 element present. */
const euContainer = (numbers: string[], detail?: (tn: string, i: number) => Record<string, unknown>) =>
  euContainerSample(containerId(), numbers, detail);

async function manifest(account: TestAccount, body: unknown): Promise<string> {
  const accepted = await call('/wf/manifest', { token: account.tokens.test, body });
  expect(accepted.status, accepted.text).toBe(200);
  return accepted.json.ManifestID;
}

const readiness = (account: TestAccount, id: string, env: 'test' | 'live' = 'test') =>
  call(`/manifests/${encodeURIComponent(id)}/customs`, { ...GET, token: account.tokens[env], env });

describe('house waybills', () => {
  it('issues one to every package that declares none (H, 11 digits, a Luhn digit), keeps a given one, and reads both back', async () => {
    const [a, b, c] = [tracking('HWA'), tracking('HWB'), tracking('HWC')];
    const id = await manifest(
      acme,
      euContainer([a, b, c], (_tn, i) =>
        i === 0 ? { Customs: { Currency: 'USD', Items: [ITEM], HouseWaybill: 'fwd0001' } } : {},
      ),
    );
    const page = await call(`/manifests/${id}/packages`, { ...GET, token: acme.tokens.test });
    const houses = page.json.data.map((p: { house_waybill: string }) => p.house_waybill);
    expect(houses[0]).toBe('FWD0001');
    for (const issued of houses.slice(1)) {
      expect(issued).toMatch(ISSUED);
      // Luhn over the 10 digits, the last its check digit.
      const digits = issued.slice(1);
      const sum = [...digits].reverse().reduce((acc: number, ch: string, i: number) => {
        let d = Number(ch);
        if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        return acc + d;
      }, 0);
      expect(sum % 10).toBe(0);
    }
    expect(new Set(houses).size).toBe(3);
    // The declaration is read back as sent: the issued number is the package's, not written into its Customs.
    const read = await call(`/packages/${b}`, { ...GET, token: acme.tokens.test });
    expect(read.json.house_waybill).toBe(houses[1]);
    expect(read.json.Customs).not.toHaveProperty('HouseWaybill');
    expect(read.json.customs_status).toBeNull();
    // A daily package gets one too.
    const daily = tracking('HWD');
    expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(daily) })).status).toBe(200);
    expect((await call(`/packages/${daily}`, { ...GET, token: acme.tokens.test })).json.house_waybill).toMatch(ISSUED);
    // An identical retry keeps the house waybills it had (nothing is issued twice).
    const again = await call(`/manifests/${id}/packages`, { ...GET, token: acme.tokens.test });
    expect(again.json.data.map((p: { house_waybill: string }) => p.house_waybill)).toEqual(houses);
  });

  it('is unique across the carrier and never reused: issued ones never repeat, across accounts and environments', async () => {
    const { rows } = await pgPool().query<{ n: number; distinct_n: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT house_waybill)::int AS distinct_n FROM (
         SELECT house_waybill FROM packages WHERE house_waybill_issued
         UNION ALL SELECT house_waybill FROM container_packages WHERE house_waybill_issued) h`,
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    expect(rows[0]?.distinct_n).toBe(rows[0]?.n);
    // The database itself refuses a second package with an issued number already taken (the partial unique index).
    const [first, second] = [tracking('HWU'), tracking('HWU')];
    for (const n of [first, second])
      expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(n) })).status).toBe(200);
    await expect(
      pgPool().query(
        `UPDATE packages SET house_waybill = (SELECT house_waybill FROM packages WHERE account_id = $1 AND tracking_number = $2)
         WHERE account_id = $1 AND tracking_number = $3`,
        [acme.accountId, first, second],
      ),
    ).rejects.toThrow(/packages_house_waybill_issued_key/);
  });

  it('refuses the carrier’s own form and a house waybill twice in one container (422 naming the field)', async () => {
    const reserved = await call('/wf/package', {
      token: acme.tokens.test,
      body: { package: { ...packageSample(tracking('HWR')).package, Customs: { HouseWaybill: 'H12345678901' } } },
    });
    expect(expectError(reserved, 422, 'validation_failed').details).toEqual([
      {
        path: 'package.Customs.HouseWaybill',
        message: expect.stringContaining('the form of the house waybills the carrier issues'),
      },
    ]);
    const twice = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: euContainer([tracking('HW1'), tracking('HW2')], () => ({
        Customs: { Currency: 'USD', Items: [ITEM], HouseWaybill: 'SAME1' },
      })),
    });
    expect(expectError(twice, 422, 'validation_failed').details).toEqual([
      {
        path: 'ContainerDetails[1].Customs.HouseWaybill',
        message: 'duplicates ContainerDetails[0].Customs.HouseWaybill: each parcel is a house of its own',
      },
    ]);
    for (const hostile of ['\u0000', 'x'.repeat(10_000), 1e308, 'HWB-1', { a: 1 }]) {
      const refused = await call('/wf/package', {
        token: acme.tokens.test,
        body: { package: { ...packageSample(tracking('HWX')).package, Customs: { HouseWaybill: hostile } } },
      });
      expect(expectError(refused, 422, 'validation_failed').details?.[0]?.path).toBe('package.Customs.HouseWaybill');
    }
  });

  it('is in both CSV exports, beside the carrier barcode and after the package fields', async () => {
    const n = tracking('HWE');
    const id = await manifest(acme, euContainer([n]));
    const house = (await call(`/packages/${n}`, { ...GET, token: acme.tokens.test })).json.house_waybill;
    const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
    const exported = await exportManifestCsv({ accountId: acme.accountId, environment: 'test', id });
    const manifestCsv = await text(exported!.stream);
    const [head, line] = manifestCsv.split('\r\n');
    // The house waybill, then the charge's status, amount and currency.
    expect(head?.split(',').at(-4)).toBe('house_waybill');
    expect(line?.split(',').at(-4)).toBe(house);
    const packagesCsv = await text(
      await exportPackagesCsv({ accountId: acme.accountId, environment: 'test', filters: { trackingNumber: n } }),
    );
    const [columns, row] = packagesCsv.split('\r\n');
    expect(columns?.split(',').slice(0, 3)).toEqual(['TrackingNumber', 'carrier_barcode', 'house_waybill']);
    expect(row?.split(',')[2]).toBe(house);
  });
});

describe('GET /manifests/{id}/customs', () => {
  it('a complete JFK → FRA container is ready for ICS2 PLACI and ENS, with the deadlines from its flight', async () => {
    const id = await manifest(acme, euContainer([tracking('RDY'), tracking('RDY')]));
    const answer = await readiness(acme, id);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({
      object: 'customs_readiness',
      ManifestID: id,
      type: 'container',
      ready: true,
      package_count: 2,
      AWB: '00012345675',
      FlightNumber: 'LH401',
      origin_country: 'US',
      destination_country: 'DE',
      customs_status: { none: 2 },
      do_not_load: [],
    });
    const byRegime = Object.fromEntries(answer.json.regimes.map((r: { regime: string }) => [r.regime, r]));
    expect(Object.keys(byRegime)).toEqual(['eu_ics2_placi', 'eu_ics2_ens', 'us_acas', 'us_enhanced_acas', 'ca_emanifest']);
    expect(byRegime.eu_ics2_placi).toMatchObject({
      applies: true,
      ready: true,
      package_count: 2,
      deadline: '2026-11-23T05:00:00.000Z',
    });
    expect(byRegime.eu_ics2_ens.applies).toBe(true);
    expect(Date.parse(byRegime.eu_ics2_ens.deadline)).toBeGreaterThan(Date.parse('2026-11-23T08:00:00Z'));
    expect(byRegime.us_acas).toMatchObject({ applies: false, ready: true });
  });

  it('names every missing or invalid element by row, tracking number and field (a US-bound container)', async () => {
    const numbers = [tracking('RNR'), tracking('RNR'), tracking('RNR')];
    const body = {
      ...containerSample(containerId()),
      FromCountry: 'CA',
      FromCity: 'Toronto',
      AWB: '',
      FlightNumber: 'AC123',
      FlightDate: '2026-11-23',
      OriginAirport: 'YYZ',
      DestinationAirport: 'JFK',
      ContainerDetails: numbers.map((tn, i) => ({
        ...containerDetail(tn),
        ToPhone: i === 1 ? '' : '+1 310 555 0101',
        ToEmail: i === 2 ? '' : 'jane@example.com',
        ToCountry: i === 2 ? 'Amerca' : 'US',
        Customs: { Currency: 'USD', Items: [i === 0 ? { ...ITEM, OriginCountry: '' } : ITEM] },
      })),
    };
    const id = await manifest(acme, body);
    const answer = await readiness(acme, id);
    expect(answer.status, answer.text).toBe(200);
    const enhanced = answer.json.regimes.find((r: { regime: string }) => r.regime === 'us_enhanced_acas');
    expect(enhanced).toMatchObject({ applies: true, ready: false, countries: ['US'] });
    expect(enhanced.problems.map((p: Record<string, unknown>) => [p.row, p.tracking_number, p.path, p.code])).toEqual([
      [null, null, 'AWB', 'missing'],
      [0, numbers[0], 'ContainerDetails[0].Customs.Items[0].OriginCountry', 'missing'],
      [1, numbers[1], 'ContainerDetails[1].ToPhone', 'missing'],
      [2, numbers[2], 'ContainerDetails[2].ToCountry', 'invalid'],
      [2, numbers[2], 'ContainerDetails[2].ToEmail', 'missing'],
    ]);
    expect(enhanced.by_field).toEqual({ AWB: 1, 'Customs.Items[].OriginCountry': 1, ToCountry: 1, ToEmail: 1, ToPhone: 1 });
    expect(answer.json.ready).toBe(false);
    // The flight is under 4 h (YYZ → JFK): ACAS before loading, at the start of the day in Toronto.
    expect(enhanced.deadline).toBe('2026-11-23T05:00:00.000Z');
  });

  it('reads a daily manifest’s regimes from each package’s own address', async () => {
    const n = tracking('RDD');
    const accepted = await call('/wf/package', { token: acme.tokens.test, body: packageSample(n, '2026-12-02T08:00:00Z') });
    const answer = await readiness(acme, accepted.json.ManifestID);
    expect(answer.status, answer.text).toBe(200);
    const acas = answer.json.regimes.find((r: { regime: string }) => r.regime === 'us_acas');
    // The contract's sample: Toronto to a Beverly Hills ZIP.
    expect(acas).toMatchObject({ applies: true, countries: ['US'], deadline: null });
    expect(acas.problems.every((p: { path: string }) => p.path.startsWith('package.'))).toBe(true);
  });

  it('is a 404 for another account’s manifest, the other environment’s, and a 4xx envelope for any hostile id', async () => {
    const id = await manifest(acme, euContainer([tracking('RHO')]));
    expectError(await readiness(other, id), 404, 'not_found');
    expectError(await readiness(acme, id, 'live'), 404, 'not_found');
    for (const hostile of ['MAN-NOPE', 'x'.repeat(10_000), '%00', "' OR 1=1 --", '1e308', '💥']) {
      const answer = await fetch(`${baseUrl}${pathFor('test', `/manifests/${hostile}/customs`)}`, {
        headers: { authorization: `Token ${acme.tokens.test}` },
      });
      expect(answer.status, hostile.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(answer.status, hostile.slice(0, 20)).toBeLessThan(500);
      expect((await answer.json()).error.code).toEqual(expect.any(String));
    }
    const unauthenticated = await call(`/manifests/${id}/customs`, { ...GET });
    expectError(unauthenticated, 401, 'unauthorized');
  });

  it('computes a 5,000-package container with full customs data well within its bound (timed)', async () => {
    const numbers = Array.from({ length: 5_000 }, () => tracking('R5K'));
    const id = await manifest(acme, euContainer(numbers));
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof readiness>> | undefined;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      last = await readiness(acme, id);
      times.push(performance.now() - started);
      expect(last.status).toBe(200);
    }
    expect(last?.json).toMatchObject({ package_count: 5_000, ready: true });
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[2] ?? Infinity;
    console.log(
      `readiness of 5,000 packages over HTTP: median ${median.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
    // The goal (300 ms) is the bench's (bench/customs-readiness.ts), on a quiet machine; this bound catches a regression
    // of an order of magnitude on a busy one.
    expect(median).toBeLessThan(3_000);
  });
});
