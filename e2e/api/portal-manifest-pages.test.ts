import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import { listManifestPackages, listManifests } from '@/lib/shipments/read';
import { ZListManifestsResponse, ZListPackagesResponse, ZManifestResponse } from '@/lib/schemas/lifecycle';
import { ZManifestServicesResponse } from '@/lib/schemas/portal-responses';
import { baseUrl, call, newAccount, tracking } from './support/api';
import { checkExchange } from './support/contract';
import { containerSample, packageSample } from './support/samples';
import { portalCall, signUp, type PortalAnswer, type Shipper } from './support/portal';

// One resource, one shape: the portal's Manifests list, a manifest's page and its packages table read
// GET /manifests, GET /manifests/{id} and GET /manifests/{id}/packages through the API's own operations
// (lib/portal/api-operation.ts). Every answer parses with the API's response schema, conforms to the OpenAPI
// document and equals the API's answer for the same request. Before, the portal answered {items, total, nextCursor,
// prevCursor, services}, {id, containerId, header, columns…} and {items: [{position, trackingNumber, detail}]}.

async function rejected(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('manifest reads walk their keyset pages (GET /manifests and the portal alike)', () => {
  it('walks both tables in (created_at, kind, id) order, ties broken by kind then id; a cursor not ours is a 422 naming it', async () => {
    const owner = await newAccount('Pages');
    const tag = randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase();
    // Newest first: C3 and D3 share an instant (a daily manifest before a container at one instant).
    const rows: { id: string; kind: 'container' | 'daily'; at: string; day: string }[] = [
      { id: `MAN-D3${tag}`, kind: 'daily', at: '2026-11-20T10:00:00.500Z', day: '2026-11-20' },
      { id: `MAN-C3${tag}`, kind: 'container', at: '2026-11-20T10:00:00.500Z', day: '2026-11-20' },
      { id: `MAN-C2${tag}`, kind: 'container', at: '2026-11-19T09:00:00.001Z', day: '2026-11-19' },
      { id: `MAN-D2${tag}`, kind: 'daily', at: '2026-11-18T08:00:00.000Z', day: '2026-11-18' },
      { id: `MAN-C1${tag}`, kind: 'container', at: '2026-11-17T07:00:00.999Z', day: '2026-11-17' },
    ];
    for (const row of rows) {
      if (row.kind === 'container') {
        await db.$executeRawUnsafe(
          `INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, service_name, from_company,
                                            shipment_description, package_count, header, request_hash, created_at)
           VALUES ($1, $2::uuid, 'test', $1, $3::timestamptz, 'AirSkip', 'Acme', 'Pages', 0, '{}'::jsonb, 'x', $3::timestamptz)`,
          row.id,
          owner.accountId,
          row.at,
        );
      } else {
        await db.$executeRawUnsafe(
          `INSERT INTO daily_manifests (id, account_id, environment, manifest_date, created_at, services) VALUES ($1, $2::uuid, 'test', $3::date, $4::timestamptz, '{Carrier Ground}')`,
          row.id,
          owner.accountId,
          row.day,
          row.at,
        );
      }
    }
    const scope = { accountId: owner.accountId, environment: 'test' as const };
    const page = (query: Partial<Parameters<typeof listManifests>[0]['query']>) =>
      listManifests({ ...scope, query: { limit: 2, ...query } });
    const ids = (list: { data: { ManifestID: string }[] }) => list.data.map((m) => m.ManifestID);
    const all = rows.map((r) => r.id);

    const first = await page({});
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(first.has_more).toBe(true);
    expect(first.data.map((m) => m.created_at)).toEqual([rows[0]?.at, rows[1]?.at]);
    // Each kind's day and services: a daily manifest's day, a container's instant.
    expect(first.data.map((m) => [m.type, m.ManifestDate, m.services])).toEqual([
      ['daily', '2026-11-20', ['Carrier Ground']],
      ['container', '2026-11-20T10:00:00.500Z', ['AirSkip']],
    ]);
    const second = await page({ cursor: first.next_cursor ?? 'none' });
    expect(ids(second)).toEqual(all.slice(2, 4));
    const third = await page({ cursor: second.next_cursor ?? 'none' });
    expect(ids(third)).toEqual(all.slice(4));
    expect([third.has_more, third.next_cursor]).toEqual([false, null]);
    // The portal's Previous re-reads a page from the cursor it kept (its trail): the same page again.
    expect(ids(await page({ cursor: first.next_cursor ?? 'none' }))).toEqual(all.slice(2, 4));

    const daily = await page({ type: 'daily', limit: 1 });
    expect(ids(daily)).toEqual([rows[0]?.id]);
    expect(ids(await page({ type: 'daily', limit: 1, cursor: daily.next_cursor ?? 'none' }))).toEqual([rows[3]?.id]);
    // A daily manifest has the services of its packages: a service filter finds it beside the containers of that service.
    expect(ids(await page({ service: 'Carrier Ground', limit: 10 }))).toEqual([rows[0]?.id, rows[3]?.id]);
    expect(ids(await page({ service: 'AirSkip', limit: 10 }))).toEqual([rows[1]?.id, rows[2]?.id, rows[4]?.id]);
    // Days: a container by its ManifestDate's UTC day, a daily manifest by its day, both ends included.
    expect(ids(await page({ from: '2026-11-18', to: '2026-11-19', limit: 10 }))).toEqual([rows[2]?.id, rows[3]?.id]);

    for (const bad of ['%', 'n1.1', 'a'.repeat(300), Buffer.from(`1|${all[1]}' OR 1=1`).toString('base64url')]) {
      const error = await rejected(page({ cursor: bad }));
      expect([error.code, error.details]).toEqual([
        'validation_failed',
        [{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }],
      ]);
    }
  });

  it("pages a manifest's packages in manifest order (a container's by position, a daily one's by arrival); another account's manifest is a 404", async () => {
    const owner = await newAccount('Package pages');
    const tag = randomUUID().replaceAll('-', '').slice(0, 12).toUpperCase();
    const container = `MAN-PC${tag}`;
    const daily = `MAN-PD${tag}`;
    await db.$executeRawUnsafe(
      `INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, service_name, from_company,
                                        shipment_description, package_count, header, request_hash)
       VALUES ($1, $2::uuid, 'test', $1, now(), 'AirSkip', 'Acme', 'Pages', 5, '{}'::jsonb, 'x')`,
      container,
      owner.accountId,
    );
    // Positions with gaps, inserted out of order: the order is the positions', the cursor the last position.
    const positions = [4, 0, 8, 1, 7];
    const containerNumbers = positions.map((p) => `${tracking('PC')}-${p}`);
    for (const [i, position] of positions.entries()) {
      await db.$executeRawUnsafe(
        `INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, detail)
         VALUES ($1, $2::uuid, 'test', $3, $4, jsonb_build_object('n', $3::int))`,
        container,
        owner.accountId,
        position,
        containerNumbers[i],
      );
    }
    const byPosition = [...positions.keys()]
      .sort((a, b) => (positions[a] ?? 0) - (positions[b] ?? 0))
      .map((i) => containerNumbers[i]);
    await db.$executeRawUnsafe(
      `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', '2026-11-20')`,
      daily,
      owner.accountId,
    );
    const dailyNumbers = [tracking('PD'), tracking('PD'), tracking('PD')];
    for (const number of dailyNumbers) {
      await db.$executeRawUnsafe(
        `INSERT INTO packages (account_id, environment, daily_manifest_id, tracking_number, manifest_date, service_name, final_mile_carrier,
                               to_postal_code, data, request_hash)
         VALUES ($1::uuid, 'test', $2, $3, now(), 'AirSkip', 'USPS', '10001', jsonb_build_object('t', $3::text), 'x')`,
        owner.accountId,
        daily,
        number,
      );
    }
    const scope = { accountId: owner.accountId, environment: 'test' as const };
    const numbers = (list: { data: { TrackingNumber: string | null }[] }) => list.data.map((p) => p.TrackingNumber);

    const c1 = await listManifestPackages({ ...scope, manifestId: container, limit: 2 });
    expect(numbers(c1)).toEqual(byPosition.slice(0, 2));
    // The package as every read answers it: its stored fields, under the contract's names, with its status.
    expect(c1.data[0]).toMatchObject({
      object: 'package',
      n: 0,
      ManifestID: container,
      ContainerID: container,
      manifest_type: 'container',
      status: 'manifested',
    });
    const c2 = await listManifestPackages({ ...scope, manifestId: container, limit: 2, cursor: c1.next_cursor ?? 'none' });
    expect(numbers(c2)).toEqual(byPosition.slice(2, 4));
    const c3 = await listManifestPackages({ ...scope, manifestId: container, limit: 2, cursor: c2.next_cursor ?? 'none' });
    expect(numbers(c3)).toEqual(byPosition.slice(4));
    expect([c3.has_more, c3.next_cursor]).toEqual([false, null]);
    expect((await listManifestPackages({ ...scope, manifestId: container, limit: 5 })).next_cursor).toBeNull();

    const d1 = await listManifestPackages({ ...scope, manifestId: daily, limit: 2 });
    expect(numbers(d1)).toEqual(dailyNumbers.slice(0, 2));
    expect(d1.data[0]).toMatchObject({ object: 'package', t: dailyNumbers[0], ManifestID: daily, manifest_type: 'daily' });
    const d2 = await listManifestPackages({ ...scope, manifestId: daily, limit: 2, cursor: d1.next_cursor ?? 'none' });
    expect(numbers(d2)).toEqual(dailyNumbers.slice(2));
    expect(d2.next_cursor).toBeNull();

    // A cursor of another manifest kind's list, or none of ours: 422 naming cursor. Another account's manifest: 404.
    expect(
      (await rejected(listManifestPackages({ ...scope, manifestId: daily, limit: 2, cursor: c1.next_cursor ?? 'none' }))).details,
    ).toEqual([{ path: 'cursor', message: 'must be a next_cursor value from a previous page of this list' }]);
    expect(
      (await rejected(listManifestPackages({ ...scope, manifestId: daily, limit: 2, cursor: 'n-1.0' }))).details?.[0]?.path,
    ).toBe('cursor');
    const stranger = await newAccount('Package pages stranger');
    expect(
      (
        await rejected(
          listManifestPackages({ accountId: stranger.accountId, environment: 'test', manifestId: container, limit: 2 }),
        )
      ).code,
    ).toBe('not_found');
    expect((await rejected(listManifestPackages({ ...scope, environment: 'live', manifestId: daily, limit: 2 }))).code).toBe(
      'not_found',
    );
  });
});

describe("the portal's manifest routes answer the API's shape", () => {
  /** A portal-api GET, held to the OpenAPI document as the API's own exchanges are (support/contract.ts). */
  async function portal(who: Shipper, path: string, env: 'test' | 'live' = 'test'): Promise<PortalAnswer> {
    const answer = await portalCall(who, 'GET', path, { env });
    const drift = checkExchange({
      method: 'GET',
      path: path.replace(/^\/portal-api/, ''),
      status: answer.status,
      contentType: answer.headers.get('content-type'),
      requestBody: undefined,
      responseBody: answer.json,
    });
    expect(drift, path).toEqual([]);
    return answer;
  }
  const get = (who: Shipper, path: string, env: 'test' | 'live' = 'test') =>
    call(path, { method: 'GET', env, token: who.tokens[env] });

  it('list (every filter and page), detail and packages: the same schema, the same answer as the API', async () => {
    const owner = await signUp('PortalManifests');
    const containerId = `ULD-${randomUUID().slice(0, 8).toUpperCase()}`;
    const containerNumbers = [tracking('PMC'), tracking('PMC'), tracking('PMC')];
    const created = await call('/wf/manifest', {
      token: owner.tokens.test,
      body: containerSample(containerId, containerNumbers),
    });
    expect(created.status, created.text).toBe(200);
    const containerManifest = created.json.ManifestID as string;
    const dailyNumber = tracking('PMD');
    const sent = packageSample(dailyNumber);
    const accepted = await call('/wf/package', {
      token: owner.tokens.test,
      body: { package: { ...sent.package, ServiceName: 'Carrier Ground' } },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const dailyManifest = (await get(owner, `/packages/${dailyNumber}`)).json.ManifestID as string;

    // The list: each query through the portal and the API, the same answer, valid by the API's own schema.
    const lists = [
      '',
      '?limit=1',
      `?q=${containerId.toLowerCase()}`,
      `?q=${containerId.slice(0, 6)}`,
      `?q=${containerManifest.toLowerCase()}`,
      `?q=${containerNumbers[1]?.toLowerCase()}`,
      `?q=${dailyNumber}`,
      '?service=Carrier%20Ground',
      '?service=AirSkip',
      '?type=daily',
      '?type=container&status=manifested',
      '?from=2026-11-23&to=2026-11-23',
      '?from=2001-01-01&to=2001-01-31',
    ];
    const found: Record<string, string[]> = {};
    for (const query of lists) {
      const mine = await portal(owner, `/portal-api/manifests${query}`);
      expect(mine.status, `${query}: ${mine.text.slice(0, 300)}`).toBe(200);
      expect(ZListManifestsResponse.safeParse(mine.json).success, query).toBe(true);
      expect(mine.json, query).toEqual((await get(owner, `/manifests${query}`)).json);
      found[query] = (mine.json as { data: { ManifestID: string }[] }).data.map((m) => m.ManifestID);
    }
    expect(found['']).toEqual([dailyManifest, containerManifest]);
    expect(found['?limit=1']).toEqual([dailyManifest]);
    for (const query of [
      `?q=${containerId.toLowerCase()}`,
      `?q=${containerId.slice(0, 6)}`,
      `?q=${containerManifest.toLowerCase()}`,
      `?q=${containerNumbers[1]?.toLowerCase()}`,
    ]) {
      expect(found[query], query).toEqual([containerManifest]);
    }
    expect(found[`?q=${dailyNumber}`]).toEqual([dailyManifest]);
    expect(found['?service=Carrier%20Ground']).toEqual([dailyManifest]);
    expect(found['?service=AirSkip']).toEqual([containerManifest]);
    expect(found['?type=daily']).toEqual([dailyManifest]);
    expect(found['?type=container&status=manifested']).toEqual([containerManifest]);
    expect(found['?from=2026-11-23&to=2026-11-23']).toEqual([dailyManifest, containerManifest]);
    expect(found['?from=2001-01-01&to=2001-01-31']).toEqual([]);
    // The next page by the first page's cursor, as the portal's Next asks for it.
    const first = await portal(owner, '/portal-api/manifests?limit=1');
    const next = await portal(owner, `/portal-api/manifests?limit=1&cursor=${first.json.next_cursor}`);
    expect(next.json).toEqual((await get(owner, `/manifests?limit=1&cursor=${first.json.next_cursor}`)).json);
    expect(next.json.data.map((m: { ManifestID: string }) => m.ManifestID)).toEqual([containerManifest]);

    // The detail and the status route: GET /manifests/{id}'s answer, with the container's header, counts and totals.
    for (const id of [containerManifest, dailyManifest]) {
      const detail = await portal(owner, `/portal-api/manifests/${id}`);
      expect(detail.status, detail.text.slice(0, 300)).toBe(200);
      expect(ZManifestResponse.safeParse(detail.json).success).toBe(true);
      const api = (await get(owner, `/manifests/${id}`)).json;
      expect(detail.json).toEqual(api);
      // The status route has no API path of its own (it is GET /manifests/{id} under another name): compared, not looked up.
      expect((await portalCall(owner, 'GET', `/portal-api/manifests/${id}/status`)).json).toEqual(api);
    }
    const container = (await portal(owner, `/portal-api/manifests/${containerManifest}`)).json;
    expect(container).toMatchObject({
      ManifestID: containerManifest,
      type: 'container',
      ContainerID: containerId,
      ServiceName: 'AirSkip',
      FromCompany: 'Acme Parcels',
      ManifestDate: '2026-11-23T08:00:00.000Z',
      manifest_date_defaulted: false,
      services: ['AirSkip'],
      PackageCount: 3,
      totals: { package_count: 3, by_status: { manifested: 3 }, total_weight_lb: '7.50' },
    });
    expect((await portal(owner, `/portal-api/manifests/${dailyManifest}`)).json).toMatchObject({
      type: 'daily',
      ManifestDate: '2026-11-23',
      manifest_date_defaulted: false,
      services: ['Carrier Ground'],
      PackageCount: 1,
    });
    expect((await portal(owner, `/portal-api/manifests/${dailyManifest}`)).json).not.toHaveProperty('ContainerID');

    // The packages table: GET /manifests/{id}/packages's pages, in the container's order.
    const p1 = await portal(owner, `/portal-api/manifests/${containerManifest}/packages?limit=2`);
    expect(ZListPackagesResponse.safeParse(p1.json).success).toBe(true);
    expect(p1.json).toEqual((await get(owner, `/manifests/${containerManifest}/packages?limit=2`)).json);
    const p2 = await portal(owner, `/portal-api/manifests/${containerManifest}/packages?limit=2&cursor=${p1.json.next_cursor}`);
    expect(p2.json).toEqual(
      (await get(owner, `/manifests/${containerManifest}/packages?limit=2&cursor=${p1.json.next_cursor}`)).json,
    );
    expect([...p1.json.data, ...p2.json.data].map((p: { TrackingNumber: string }) => p.TrackingNumber)).toEqual(containerNumbers);
    expect(p1.json.data[0]).toMatchObject({
      object: 'package',
      TrackingNumber: containerNumbers[0],
      PackageWeight: '2.5',
      ToCity: 'Beverly Hills',
      status: 'manifested',
    });
    const dailyPage = await portal(owner, `/portal-api/manifests/${dailyManifest}/packages`);
    expect(dailyPage.json).toEqual((await get(owner, `/manifests/${dailyManifest}/packages`)).json);
    expect(dailyPage.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber)).toEqual([dailyNumber]);

    // The service filter's options (the portal's form alone asks): the containers' and the daily manifests' services.
    const services = await portalCall(owner, 'GET', '/portal-api/manifests/services');
    expect(ZManifestServicesResponse.parse(services.json)).toEqual({ services: ['AirSkip', 'Carrier Ground'] });

    // Refusals are the API's too: 422 naming the parameter, 404 for another environment's or nobody's manifest.
    for (const [query, field] of [
      ['?cursor=garbage', 'cursor'],
      ['?after=x', 'after'],
      ['?limit=101', 'limit'],
      [`?service=${'S'.repeat(101)}`, 'service'],
      ['?from=2026-02-30', 'from'],
      ['?from=2026-11-20&to=2026-11-19', 'to'],
    ] as const) {
      const refused = await portal(owner, `/portal-api/manifests${query}`);
      expect([refused.status, refused.json.error.code, refused.json.error.details[0].path], query).toEqual([
        422,
        'validation_failed',
        field,
      ]);
      expect(refused.json.error.details).toEqual((await get(owner, `/manifests${query}`)).json.error.details);
    }
    expect((await portal(owner, `/portal-api/manifests/${containerManifest}`, 'live')).status).toBe(404);
    expect((await portal(owner, `/portal-api/manifests/${containerManifest}/packages`, 'live')).status).toBe(404);
    expect((await portal(owner, '/portal-api/manifests/MAN-NOPE/packages')).status).toBe(404);
    expect((await portal(owner, `/portal-api/manifests/${dailyManifest}/packages?cursor=${p1.json.next_cursor}`)).status).toBe(
      422,
    );
    const stranger = await signUp('PortalManifestsStranger');
    expect((await portal(stranger, '/portal-api/manifests')).json).toEqual({
      object: 'list',
      data: [],
      has_more: false,
      next_cursor: null,
    });
    expect((await portal(stranger, `/portal-api/manifests/${containerManifest}`)).status).toBe(404);
    expect((await portalCall(stranger, 'GET', '/portal-api/manifests/services')).json).toEqual({ services: [] });
  });
});

describe("the builder's submit is POST /wf/manifest's own operation", () => {
  it('answers the contract body, marks an identical retry with Idempotent-Replayed as the API does, and the 409 too', async () => {
    const owner = await signUp('PortalBuilder');
    const viaPortal = containerSample(`ULD-${randomUUID().slice(0, 8).toUpperCase()}`, [tracking('PBM'), tracking('PBM')]);
    const first = await portalCall(owner, 'POST', '/portal-api/manifests', { body: viaPortal });
    expect(first.status, first.text).toBe(200);
    // The contract's fields, then the charges' totals (docs/decisions/money.md).
    expect(Object.keys(first.json).sort()).toEqual([
      'ChargeTotal',
      'Currency',
      'IsSuccess',
      'ManifestID',
      'PackageCount',
      'PricedCount',
      'UnpricedCount',
    ]);
    expect(first.json).toMatchObject({ IsSuccess: 'true', PackageCount: 2 });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await portalCall(owner, 'POST', '/portal-api/manifests', { body: viaPortal });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // The API's answer to the same retry is the same body with the same header.
    const api = await fetch(`${baseUrl}/version-test/api/1.1/wf/manifest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${owner.tokens.test}` },
      body: JSON.stringify(viaPortal),
    });
    expect(await api.json()).toEqual(first.json);
    expect(api.headers.get('idempotent-replayed')).toBe('true');
    // A browser's script can read it (CORS exposes it).
    expect(api.headers.get('access-control-expose-headers')).toMatch(/Idempotent-Replayed/);
    const changed = await portalCall(owner, 'POST', '/portal-api/manifests', { body: { ...viaPortal, FromName: 'Dock 5' } });
    expect(changed.status, changed.text).toBe(409);

    const daily = packageSample(tracking('PBD'));
    const once = await call('/wf/package', { token: owner.tokens.test, body: daily });
    const twice = await fetch(`${baseUrl}/version-test/api/1.1/wf/package`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${owner.tokens.test}` },
      body: JSON.stringify(daily),
    });
    expect(once.status, once.text).toBe(200);
    expect(twice.status).toBe(200);
    expect(await twice.json()).toEqual(once.json);
    expect(twice.headers.get('idempotent-replayed')).toBe('true');
  });
});
