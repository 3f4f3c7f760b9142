import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { listManifests } from '@/lib/portal-queries/list-manifests';
import { newAccount } from './support/api';

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
});
