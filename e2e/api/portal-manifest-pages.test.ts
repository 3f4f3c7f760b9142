import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { listManifestPackages } from '@/lib/portal-queries/get-manifest';
import { listManifests } from '@/lib/portal-queries/list-manifests';
import { newAccount, tracking } from './support/api';

// The portal's Manifests list pages by keyset cursor in both directions (after = older, before = newer), container
// and daily manifests merged newest first by (created_at, id); a cursor that is not one of ours is the first page.

describe("the portal's manifest list pages", () => {
  it('walks forward and back through both tables in (created_at, id) order, ties broken by id, and reads a bad cursor as the first page', async () => {
    const owner = await newAccount('Pages');
    const tag = randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase();
    // Newest first: C3 and D3 share an instant (the id decides: D… after C… in DESC order means D first).
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
          `INSERT INTO daily_manifests (id, account_id, environment, manifest_date, created_at) VALUES ($1, $2::uuid, 'test', $3::date, $4::timestamptz)`,
          row.id,
          owner.accountId,
          row.day,
          row.at,
        );
      }
    }
    const scope = { accountId: owner.accountId, environment: 'test' as const, limit: 2 };
    const ids = (page: { items: { id: string }[] }) => page.items.map((m) => m.id);
    const all = rows.map((r) => r.id);

    const first = await listManifests(scope);
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(first.total).toBe(5);
    expect(first.prevCursor).toBeNull();
    expect(first.items.map((m) => m.createdAt)).toEqual([rows[0]?.at, rows[1]?.at]);
    const second = await listManifests({ ...scope, after: first.nextCursor ?? 'none' });
    expect(ids(second)).toEqual(all.slice(2, 4));
    const third = await listManifests({ ...scope, after: second.nextCursor ?? 'none' });
    expect(ids(third)).toEqual(all.slice(4));
    expect(third.nextCursor).toBeNull();
    expect(third.prevCursor).not.toBeNull();

    const back = await listManifests({ ...scope, before: third.prevCursor ?? 'none' });
    expect(ids(back)).toEqual(all.slice(2, 4));
    expect(back.nextCursor).not.toBeNull();
    expect(back.prevCursor).not.toBeNull();
    const start = await listManifests({ ...scope, before: back.prevCursor ?? 'none' });
    expect(ids(start)).toEqual(all.slice(0, 2));
    expect(start.prevCursor).toBeNull();

    const daily = await listManifests({ ...scope, type: 'daily', limit: 1 });
    expect(ids(daily)).toEqual([rows[0]?.id]);
    expect(ids(await listManifests({ ...scope, type: 'daily', limit: 1, after: daily.nextCursor ?? 'none' }))).toEqual([rows[3]?.id]);

    for (const bad of ['%', 'n1.1', 'a'.repeat(300), Buffer.from(`1|${all[1]}' OR 1=1`).toString('base64url')]) {
      const page = await listManifests({ ...scope, after: bad });
      expect(ids(page)).toEqual(all.slice(0, 2));
      expect(ids(await listManifests({ ...scope, before: bad }))).toEqual(all.slice(0, 2));
    }
  });

  it("pages a manifest's packages in manifest order, positions counted across pages, another account's manifest null", async () => {
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
    // Positions with gaps: the cursor is the last position, not a count.
    const positions = [0, 1, 4, 7, 8];
    const containerNumbers = positions.map(() => tracking('PC'));
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
    await db.$executeRawUnsafe(
      `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', '2026-11-20')`,
      daily,
      owner.accountId,
    );
    // The count the package insert keeps (lib/manifests/counters.ts), written as it would be for these three.
    await db.$executeRawUnsafe(
      `INSERT INTO daily_manifest_counts (manifest_id, status, shard, packages, weight_lb) VALUES ($1, 'manifested', 0, 3, 0)`,
      daily,
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

    const c1 = await listManifestPackages({ ...scope, id: container, limit: 2 });
    expect(c1?.items).toEqual([
      { position: 0, trackingNumber: containerNumbers[0], detail: { n: 0 } },
      { position: 1, trackingNumber: containerNumbers[1], detail: { n: 1 } },
    ]);
    expect([c1?.total, c1?.limit]).toEqual([5, 2]);
    const c2 = await listManifestPackages({ ...scope, id: container, limit: 2, cursor: c1?.nextCursor ?? 'none' });
    expect(c2?.items.map((r) => r.position)).toEqual([4, 7]);
    const c3 = await listManifestPackages({ ...scope, id: container, limit: 2, cursor: c2?.nextCursor ?? 'none' });
    expect(c3?.items.map((r) => [r.position, r.trackingNumber])).toEqual([[8, containerNumbers[4]]]);
    expect(c3?.nextCursor).toBeNull();
    expect((await listManifestPackages({ ...scope, id: container, limit: 5 }))?.nextCursor).toBeNull();

    const d1 = await listManifestPackages({ ...scope, id: daily, limit: 2 });
    expect(d1?.items).toEqual([
      { position: 0, trackingNumber: dailyNumbers[0], detail: { t: dailyNumbers[0] } },
      { position: 1, trackingNumber: dailyNumbers[1], detail: { t: dailyNumbers[1] } },
    ]);
    expect(d1?.total).toBe(3);
    const d2 = await listManifestPackages({ ...scope, id: daily, limit: 2, cursor: d1?.nextCursor ?? 'none' });
    expect(d2?.items).toEqual([{ position: 2, trackingNumber: dailyNumbers[2], detail: { t: dailyNumbers[2] } }]);
    expect(d2?.nextCursor).toBeNull();

    // A cursor not ours is the first page; another account's manifest is none.
    expect((await listManifestPackages({ ...scope, id: daily, limit: 2, cursor: 'n-1.0' }))?.items.map((r) => r.position)).toEqual([0, 1]);
    const stranger = await newAccount('Package pages stranger');
    expect(await listManifestPackages({ accountId: stranger.accountId, environment: 'test', id: container })).toBeNull();
    expect(await listManifestPackages({ ...scope, environment: 'live', id: daily })).toBeNull();
  });
});
