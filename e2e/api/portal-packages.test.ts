import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CHARGE_COLUMNS, PACKAGE_EXPORT_COLUMNS } from '@/lib/spreadsheets/export-packages-csv';
import { csvCell } from '@/lib/spreadsheets/csv';
import { CONTAINER_PACKAGE_COLUMNS, DAILY_PACKAGE_COLUMNS } from '@/lib/spreadsheets/package-columns';
import { db } from '@/lib/db';
import { baseUrl, call } from './support/api';
import { portalCall, signUp, type PortalAnswer, type Shipper } from './support/portal';
import { containerSample, packageSample } from './support/samples';

// The portal's lifecycle endpoints (Portal): the Packages list, a package and its timeline,
// cancel, the test-mode simulator, a manifest's status, and the streamed CSV export. Through the real
// server: session, CSRF, the environment header, another account's ids, hostile filters, and the export's
// memory while it streams 100,000 rows.

type Answer = PortalAnswer;
const portal = portalCall;

function expectEnvelope(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json?.error?.code, answer.text).toBe(code);
  expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
  return answer.json.error as { message: string; details?: { path: string; message: string }[] };
}

let owner: Shipper;
let stranger: Shipper;
const prefix = `LP${randomUUID().replaceAll('-', '').slice(0, 8).toUpperCase()}`;
const containerTns = [`${prefix}C1`, `${prefix}C2`];
const dailyTn = `${prefix}D1`;
const formulaTn = `${prefix}F1`;
let containerManifest = '';

beforeAll(async () => {
  [owner, stranger] = await Promise.all([signUp('Lifeportal'), signUp('Stranger')]);
  const container = await call('/wf/manifest', {
    token: owner.tokens.test,
    body: containerSample(`ULD-${prefix}`, containerTns),
  });
  expect(container.status, container.text).toBe(200);
  containerManifest = container.json.ManifestID;
  const daily = await call('/wf/package', { token: owner.tokens.test, body: packageSample(dailyTn) });
  expect(daily.status, daily.text).toBe(200);
  const sample = packageSample(formulaTn);
  const formula = {
    ...sample,
    package: { ...sample.package, ToName: '=HYPERLINK("http://evil.example","x")', ToPhone: '+44 20 7946 0958' },
  };
  const hostile = await call('/wf/package', { token: owner.tokens.test, body: formula });
  expect(hostile.status, hostile.text).toBe(200);
});

describe('portal packages: who may ask', () => {
  it('no session: 401; no environment: 400 environment_required; a mutation without the CSRF token: 403', async () => {
    expectEnvelope(await portal(null, 'GET', '/portal-api/packages'), 401, 'unauthorized');
    expectEnvelope(await portal(null, 'GET', '/portal-api/exports/packages'), 401, 'unauthorized');
    expectEnvelope(await portal(owner, 'GET', '/portal-api/packages', { env: null }), 400, 'environment_required');
    expectEnvelope(await portal(owner, 'GET', `/portal-api/packages/${dailyTn}`, { env: null }), 400, 'environment_required');
    expectEnvelope(await portal(owner, 'POST', `/portal-api/packages/${dailyTn}/cancel`, { csrf: null }), 403, 'forbidden');
    expectEnvelope(
      await portal(owner, 'POST', `/portal-api/packages/${dailyTn}/cancel`, { csrf: 'x'.repeat(43) }),
      403,
      'forbidden',
    );
    expectEnvelope(
      await portal(owner, 'POST', `/portal-api/manifests/${containerManifest}/simulate`, {
        csrf: null,
        body: { status: 'received' },
      }),
      403,
      'forbidden',
    );
    // Nothing was cancelled by the refused requests.
    expect((await portal(owner, 'GET', `/portal-api/packages/${dailyTn}`)).json.status).toBe('manifested');
  });

  it("another account's ids are 404 everywhere; its lists and exports hold none of them", async () => {
    for (const [method, path, body] of [
      ['GET', `/portal-api/packages/${dailyTn}`],
      ['GET', `/portal-api/packages/${dailyTn}/events`],
      ['POST', `/portal-api/packages/${dailyTn}/cancel`],
      ['POST', `/portal-api/packages/${dailyTn}/simulate`, { status: 'delivered' }],
      ['GET', `/portal-api/manifests/${containerManifest}/status`],
      ['POST', `/portal-api/manifests/${containerManifest}/cancel`],
      ['POST', `/portal-api/manifests/${containerManifest}/simulate`, { status: 'received' }],
    ] as const) {
      expectEnvelope(await portal(stranger, method, path, { body }), 404, 'not_found');
      // The owner's own session in live: the package is test's.
      expectEnvelope(await portal(owner, method, path, { env: 'live', body }), 404, 'not_found');
    }
    const list = await portal(stranger, 'GET', `/portal-api/packages?tracking_number=${prefix}`);
    expect(list.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    const csv = await portal(stranger, 'GET', `/portal-api/exports/packages?tracking_number=${prefix}`);
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n').filter(Boolean)).toHaveLength(1);
    expect((await portal(owner, 'GET', `/portal-api/packages/${dailyTn}`)).json.status).toBe('manifested');
  });
});

describe('portal packages: list, search and filters', () => {
  it('lists container and daily packages; the tracking-number search is a case-insensitive prefix', async () => {
    const all = await portal(owner, 'GET', `/portal-api/packages?tracking_number=${prefix.toLowerCase()}`);
    expect(all.status, all.text).toBe(200);
    expect(all.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber).sort()).toEqual(
      [...containerTns, dailyTn, formulaTn].sort(),
    );
    const types = new Set(all.json.data.map((p: { manifest_type: string }) => p.manifest_type));
    expect(types).toEqual(new Set(['container', 'daily']));
    // A prefix, not a substring.
    const inner = await portal(owner, 'GET', `/portal-api/packages?tracking_number=${prefix.slice(2)}`);
    expect(inner.json.data).toEqual([]);
    const manifest = await portal(owner, 'GET', `/portal-api/packages?manifest_id=${containerManifest}`);
    expect(manifest.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber).sort()).toEqual(containerTns);
  });

  it('pages with keyset cursors: two pages of two, then nothing more', async () => {
    const first = await portal(owner, 'GET', `/portal-api/packages?tracking_number=${prefix}&limit=2`);
    expect(first.json.data).toHaveLength(2);
    expect(first.json.has_more).toBe(true);
    const second = await portal(
      owner,
      'GET',
      `/portal-api/packages?tracking_number=${prefix}&limit=2&cursor=${first.json.next_cursor}`,
    );
    expect(second.json.data).toHaveLength(2);
    expect(second.json.has_more).toBe(false);
    expect(second.json.next_cursor).toBeNull();
    const seen = [...first.json.data, ...second.json.data].map((p: { TrackingNumber: string }) => p.TrackingNumber);
    expect(new Set(seen).size).toBe(4);
  });

  it('pages through a container whose packages share one created_at, ids of one and two digits and more, each once', async () => {
    const many = Array.from({ length: 23 }, (_, i) => `${prefix}M${String(i).padStart(2, '0')}`);
    const created = await call('/wf/manifest', { token: owner.tokens.test, body: containerSample(`ULD-${prefix}-M`, many) });
    expect(created.status, created.text).toBe(200);
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await portal(
        owner,
        'GET',
        `/portal-api/packages?tracking_number=${prefix}M&limit=5${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status, page.text).toBe(200);
      seen.push(...page.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber));
      if (!page.json.has_more) break;
      cursor = page.json.next_cursor;
    }
    expect(seen).toEqual([...many].reverse());
  });

  it('answers exactly what GET /packages answers (one operation, one shape), and refuses what it refuses', async () => {
    for (const query of [
      `tracking_number=${prefix}`,
      `tracking_number=${prefix.toLowerCase()}&limit=1`,
      'limit=2',
      `manifest_id=${containerManifest}`,
    ]) {
      const mine = await portal(owner, 'GET', `/portal-api/packages?${query}`);
      const api = await call(`/packages?${query}`, { method: 'GET', token: owner.tokens.test });
      expect(mine.status, mine.text).toBe(200);
      expect(api.status, api.text).toBe(200);
      expect(mine.json).toEqual(api.json);
    }
    for (const [query, parameter] of [
      ['tracking_number=%ZZ', 'tracking_number'],
      ['tracking_number=1Z%25', 'tracking_number'],
      ['%ZZ=1', '%ZZ'],
      ['to_postal_code=%E0%A4%A', 'to_postal_code'],
      ['status=a&status=b', 'status'],
    ]) {
      const mine = await portal(owner, 'GET', `/portal-api/packages?${query}`);
      const api = await call(`/packages?${query}`, { method: 'GET', token: owner.tokens.test });
      expect(
        expectEnvelope(mine, 422, 'validation_failed').details?.map((d) => d.path),
        query,
      ).toEqual([parameter]);
      expect(api.status, api.text).toBe(422);
      expect(
        api.json.error.details.map((d: { path: string }) => d.path),
        query,
      ).toEqual([parameter]);
    }
  });

  it.each([
    ['tracking_number=%00', 'tracking_number'],
    ['tracking_number=%ZZ', 'tracking_number'],
    ['status=%E0%A4', 'status'],
    ['from=0000-01-01', 'from'],
    ['to=2026-02-30', 'to'],
    ['status=lost', 'status'],
    ['cursor=not-a-cursor', 'cursor'],
    [`cursor=${Buffer.from('["0000-01-01T00:00:00.000Z",0,"1"]').toString('base64url')}`, 'cursor'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['status=received&status=delivered', 'status'],
    ['tracking_number=1Z%25', 'tracking_number'],
    ['manifest_id=MAN%2F1', 'manifest_id'],
    ['to_postal_code=%ZZ', 'to_postal_code'],
  ])('GET /portal-api/packages?%s: 422 naming %s', async (query, parameter) => {
    const error = expectEnvelope(await portal(owner, 'GET', `/portal-api/packages?${query}`), 422, 'validation_failed');
    expect(error.details?.map((d) => d.path)).toContain(parameter);
  });

  it("an unknown parameter (the old finder's ?tracking=) is a 422 that names it", async () => {
    const error = expectEnvelope(await portal(owner, 'GET', '/portal-api/packages?tracking=1Z'), 422, 'validation_failed');
    expect(JSON.stringify(error)).toContain('tracking');
  });

  it.each([
    ['tracking_number=%00', 'tracking_number'],
    ['from=0000-01-01', 'from'],
    ['to_postal_code=%ZZ', 'to_postal_code'],
    ['cursor=anything', 'cursor'],
    ['limit=10', 'limit'],
  ])('GET /portal-api/exports/packages?%s: 422 naming %s, no CSV', async (query, parameter) => {
    const answer = await portal(owner, 'GET', `/portal-api/exports/packages?${query}`);
    const error = expectEnvelope(answer, 422, 'validation_failed');
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(error.details?.map((d) => d.path)).toContain(parameter);
  });
});

describe('portal packages: timeline, simulate, cancel', () => {
  it('simulate walks every step (test only), the timeline lists them, and cancel is then 409 not_cancellable', async () => {
    const tn = containerTns[0];
    expectEnvelope(
      await portal(owner, 'POST', `/portal-api/packages/${tn}/simulate`, { env: 'live', body: { status: 'in_transit' } }),
      404,
      'not_found',
    );
    const bad = await portal(owner, 'POST', `/portal-api/packages/${tn}/simulate`, { body: { status: 'departed' } });
    expect(expectEnvelope(bad, 422, 'validation_failed').details?.[0]?.path).toBe('status');
    const simulated = await portal(owner, 'POST', `/portal-api/packages/${tn}/simulate`, { body: { status: 'in_transit' } });
    expect(simulated.status, simulated.text).toBe(200);
    expect(simulated.json).toMatchObject({ TrackingNumber: tn, status: 'in_transit' });
    const events = await portal(owner, 'GET', `/portal-api/packages/${tn}/events`);
    expect(events.json.data.map((e: { status: string; source: string }) => [e.status, e.source])).toEqual([
      ['received', 'simulator'],
      ['in_transit', 'simulator'],
    ]);
    const refused = await portal(owner, 'POST', `/portal-api/packages/${tn}/cancel`);
    expectEnvelope(refused, 409, 'not_cancellable');
    expect(refused.json.error.current_status).toBe('in_transit');
    expect((await portal(owner, 'GET', `/portal-api/packages/${tn}`)).json.status).toBe('in_transit');
  });

  it('cancel answers the cancelled package, twice (a safe retry), with a cancel event', async () => {
    const first = await portal(owner, 'POST', `/portal-api/packages/${dailyTn}/cancel`);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ TrackingNumber: dailyTn, status: 'cancelled' });
    const again = await portal(owner, 'POST', `/portal-api/packages/${dailyTn}/cancel`);
    expect(again.status).toBe(200);
    expect(again.json.status).toBe('cancelled');
    const events = await portal(owner, 'GET', `/portal-api/packages/${dailyTn}/events`);
    expect(events.json.data.map((e: { status: string; source: string }) => [e.status, e.source])).toEqual([
      ['cancelled', 'cancel'],
    ]);
  });

  it("a manifest's status counts its packages by status", async () => {
    const status = await portal(owner, 'GET', `/portal-api/manifests/${containerManifest}/status`);
    expect(status.status, status.text).toBe(200);
    expect(status.json).toMatchObject({ ManifestID: containerManifest, type: 'container', status: 'manifested' });
    expect(status.json.totals.by_status).toEqual({ in_transit: 1, manifested: 1 });
    // One package is with the carrier: the container can no longer be cancelled.
    expectEnvelope(await portal(owner, 'POST', `/portal-api/manifests/${containerManifest}/cancel`), 409, 'not_cancellable');
  });
});

describe('portal packages: CSV export', () => {
  it('exports the filtered set with its statuses, formula-looking cells neutralised', async () => {
    const response = await fetch(`${baseUrl}/portal-api/exports/packages?tracking_number=${prefix}&environment=test`, {
      headers: { cookie: owner.cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="packages-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text()).split('\r\n');
    expect(lines.pop()).toBe('');
    const header = (lines.shift() ?? '').split(',');
    expect(header.slice(0, 6)).toEqual([
      'TrackingNumber',
      'carrier_barcode',
      'house_waybill',
      'status',
      'status_updated_at',
      'ManifestID',
    ]);
    // The paging test's container (…M00 to …M22) shares the prefix: left out here.
    const byTn = new Map<string, string>();
    for (const line of lines) {
      const tn = line.split(',')[0] ?? '';
      if (!tn.startsWith(`${prefix}M`)) byTn.set(tn, line);
    }
    expect(lines).toHaveLength(4 + 23);
    expect([...byTn.keys()].sort()).toEqual([...containerTns, dailyTn, formulaTn].sort());
    const status = header.indexOf('status');
    expect(byTn.get(dailyTn)?.split(',')[status]).toBe('cancelled');
    expect(byTn.get(containerTns[0])?.split(',')[status]).toBe('in_transit');
    const toName = header.indexOf('ToName');
    expect(byTn.get(formulaTn)).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(toName).toBeGreaterThan(4);
    // Opened as a spreadsheet would read it, with a CSV parser: the formula is text, the phone number as sent.
    const parsed = Papa.parse<Record<string, string>>(
      await (
        await fetch(`${baseUrl}/portal-api/exports/packages?tracking_number=${formulaTn}&environment=test`, {
          headers: { cookie: owner.cookie },
        })
      ).text(),
      { header: true, skipEmptyLines: true },
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(1);
    expect(parsed.data[0]?.ToName).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(parsed.data[0]?.ToPhone).toBe('+44 20 7946 0958');
    // A filter narrows it: only the cancelled one.
    const cancelled = await portal(owner, 'GET', `/portal-api/exports/packages?tracking_number=${prefix}&status=cancelled`);
    expect(
      cancelled.text
        .split('\r\n')
        .filter(Boolean)
        .map((l) => l.split(',')[0]),
    ).toEqual(['TrackingNumber', dailyTn]);
  });

  it('a row of hostile text (quotes, CR/LF, leading = + - @ TAB CR, emoji, commas) is written as csv.ts writes it, in both exports', async () => {
    // The stored JSON is made hostile directly (more than the API lets in: a leading TAB or CR), so the SQL that
    // writes the CSV is checked against csv.ts's rules on every class of cell, byte for byte.
    const hostile: Record<string, string> = {
      ToName: '=1+2',
      ToAddress1: '+SUM(A1)',
      ToAddress2: '-2,5',
      ToCity: '@cmd',
      ToState: '\tTab',
      ToCountry: '\rCR first',
      ShipmentDescription: 'say "hi",\r\nthen\nleave 📦 🚚',
      Reference1: '"quoted"',
      Reference2: 'a\tb',
      Reference3: '😀',
      Reference4: ' =not at start',
      ToPhone: "'already",
    };
    const json = JSON.stringify(hostile);
    await db.$executeRawUnsafe(
      `UPDATE packages SET data = data || $1::jsonb WHERE tracking_number = $2 AND account_id = $3::uuid`,
      json,
      dailyTn,
      owner.accountId,
    );
    const containerHostile = { ...hostile, PackageWeightUnit: '-lb' };
    await db.$executeRawUnsafe(
      `UPDATE container_packages SET detail = detail || $1::jsonb WHERE tracking_number = $2 AND account_id = $3::uuid`,
      JSON.stringify(containerHostile),
      containerTns[0],
      owner.accountId,
    );
    const MANIFEST_TAIL = ['house_waybill', 'charge_status', 'charge_amount', 'charge_currency'];
    const CHARGE_SQL = `jsonb_build_object('charge_status', charge->>'status', 'charge_amount', charge->>'amount', 'charge_currency', charge->>'currency')`;
    const lineOf = (columns: readonly string[], values: Record<string, unknown>) =>
      `${columns
        .map((c) => {
          const v = values[c];
          return csvCell(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
        })
        .join(',')}\r\n`;
    const exported = await portal(owner, 'GET', `/portal-api/exports/packages?tracking_number=${prefix}`);
    expect(exported.status).toBe(200);
    expect(exported.text.startsWith(`${PACKAGE_EXPORT_COLUMNS.map(csvCell).join(',')}\r\n`)).toBe(true);
    for (const tn of [dailyTn, containerTns[0]]) {
      // What the export wrote before PostgreSQL did: csvCell over the read API's own presentation of the package.
      const presented = await portal(owner, 'GET', `/portal-api/packages/${tn}`);
      expect(presented.status).toBe(200);
      // The charge's object, as its columns (charge_status, charge_amount, …) write it.
      const charge = Object.fromEntries(
        Object.entries(CHARGE_COLUMNS).map(([column, pick]) => [
          column,
          presented.json.charge ? pick(presented.json.charge) : null,
        ]),
      );
      const expected = lineOf(PACKAGE_EXPORT_COLUMNS, { ...presented.json, ...charge });
      expect(exported.text).toContain(`\r\n${expected}`);
    }
    expect(exported.text).toContain(`"say ""hi"",\r\nthen\nleave 📦 🚚"`);
    expect(exported.text).toContain(`,'=1+2,`);
    expect(exported.text).toContain(`,'+SUM(A1),"-2,5",'@cmd,'\tTab,`);
    expect(exported.text).toContain(`,"'\rCR first",`);
    // The manifest exports: csvCell over the stored JSON's fields, in schema order, then the house waybill and the charge.
    const daily = await db.$queryRawUnsafe<{ id: string; data: Record<string, unknown> }[]>(
      `SELECT daily_manifest_id AS id, data || jsonb_build_object('house_waybill', house_waybill) || ${CHARGE_SQL} AS data FROM packages
       WHERE tracking_number = $1 AND account_id = $2::uuid`,
      dailyTn,
      owner.accountId,
    );
    const dailyExport = await portal(owner, 'GET', `/portal-api/manifests/${daily[0]?.id}/export`);
    expect(dailyExport.status).toBe(200);
    expect(dailyExport.text).toContain(`\r\n${lineOf([...DAILY_PACKAGE_COLUMNS, ...MANIFEST_TAIL], daily[0]?.data ?? {})}`);
    const stored = await db.$queryRawUnsafe<{ detail: Record<string, unknown> }[]>(
      `SELECT detail || jsonb_build_object('house_waybill', house_waybill) || ${CHARGE_SQL} AS detail FROM container_packages WHERE manifest_id = $1 ORDER BY position`,
      containerManifest,
    );
    const containerExport = await portal(owner, 'GET', `/portal-api/manifests/${containerManifest}/export`);
    expect(containerExport.status).toBe(200);
    expect(containerExport.text).toBe(
      `${[...CONTAINER_PACKAGE_COLUMNS, ...MANIFEST_TAIL].map(csvCell).join(',')}\r\n${stored
        .map((row) => lineOf([...CONTAINER_PACKAGE_COLUMNS, ...MANIFEST_TAIL], row.detail))
        .join('')}`,
    );
    expect(containerExport.text).toContain(`,'-lb,`);
  });

  it('streams 100,000 rows with the server process growing less than 50 MB', async () => {
    const bulk = await signUp('Bulk');
    const manifestId = `MAN-BULK${randomUUID().replaceAll('-', '').slice(0, 12).toUpperCase()}`;
    await db.$executeRawUnsafe(
      `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', '2026-11-23')`,
      manifestId,
      bulk.accountId,
    );
    const body = JSON.stringify(packageSample('X').package);
    await db.$executeRawUnsafe(
      `INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name, final_mile_carrier,
                             to_postal_code, data, request_hash, created_at)
       SELECT $1::uuid, 'test', $2, 'BULK' || lpad(n::text, 7, '0'), '2026-11-23T08:00:00Z', 'AirSkip', 'Carrier', '90210',
              jsonb_set($3::jsonb, '{TrackingNumber}', to_jsonb('BULK' || lpad(n::text, 7, '0'))), 'bulk',
              now() - (n || ' milliseconds')::interval
       FROM generate_series(1, 100000) n`,
      bulk.accountId,
      manifestId,
      body,
    );
    const pid = inject('serverPid');
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
    // Warm the route (its first compile and pool) before the baseline.
    await (
      await fetch(`${baseUrl}/portal-api/exports/packages?environment=test&tracking_number=BULK0000001`, {
        headers: { cookie: bulk.cookie },
      })
    ).text();
    // Each export streamed as a browser reads it (as fast as it comes), the server's RSS sampled on the way.
    const measure = async (label: string, path: string) => {
      const before = rss();
      let peak = before;
      const started = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers: { cookie: bulk.cookie } });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let rows = -1;
      let last = '';
      let chunks = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = last + decoder.decode(value, { stream: true });
        const lines = text.split('\r\n');
        last = lines.pop() ?? '';
        rows += lines.length;
        if (++chunks % 10 === 0) peak = Math.max(peak, rss());
      }
      const seconds = (performance.now() - started) / 1000;
      peak = Math.max(peak, rss());
      const growthMb = (peak - before) / 1024 / 1024;
      const rowsPerSecond = Math.round(rows / seconds);
      console.log(
        `export ${label}: ${rows} rows in ${seconds.toFixed(2)} s (${rowsPerSecond} rows/s), server RSS ${Math.round(before / 1048576)} MB → peak ${Math.round(peak / 1048576)} MB (+${growthMb.toFixed(1)} MB)`,
      );
      return { rows, last, growthMb, rowsPerSecond };
    };
    await (
      await fetch(`${baseUrl}/portal-api/manifests/${manifestId}/export?environment=test`, { headers: { cookie: bulk.cookie } })
    ).body?.cancel();
    for (const [label, path] of [
      ['packages', '/portal-api/exports/packages?environment=test'],
      ['manifest', `/portal-api/manifests/${manifestId}/export?environment=test`],
    ] as const) {
      const result = await measure(label, path);
      expect(result.last).toBe('');
      expect(result.rows).toBe(100_000);
      expect(result.growthMb).toBeLessThan(50);
      // the goal is ≥ 50,000 rows/s (bench/export.ts measures it); asserted here only when asked
      // (EXPORT_MIN_ROWS_PER_SECOND), as a shared CI machine's speed is not the code's.
      if (process.env.EXPORT_MIN_ROWS_PER_SECOND)
        expect(result.rowsPerSecond).toBeGreaterThanOrEqual(Number(process.env.EXPORT_MIN_ROWS_PER_SECOND));
    }
  }, 180_000);
});
