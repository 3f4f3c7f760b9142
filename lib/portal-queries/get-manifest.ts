import 'server-only';
import { isoDay, isoInstant } from './dates';
import { db } from '@/lib/db';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';
import type { ManifestDetail, ManifestPackagePage, ManifestPackageRow, ManifestType } from './types';
import type { PortalScope } from './scope';
import { decodePageKey, encodePageKey } from '@/lib/lifecycle/cursor';

/** Package columns, in the order of each operation's schema. */
export const CONTAINER_PACKAGE_COLUMNS = Object.keys(ZContainerDetail.shape);
export const DAILY_PACKAGE_COLUMNS = Object.keys(ZPackage.shape);

/** A container manifest or a daily package manifest of this account and environment, or null. */
export async function getManifest(options: PortalScope & { id: string }): Promise<ManifestDetail | null> {
  const { accountId, environment, id } = options;
  const container = await db.containerManifest.findFirst({
    where: { id, accountId, environment },
    select: {
      id: true,
      containerId: true,
      manifestDate: true,
      manifestDateDefaulted: true,
      serviceName: true,
      packageCount: true,
      createdAt: true,
      header: true,
    },
  });
  if (container) {
    return {
      type: 'container',
      id: container.id,
      containerId: container.containerId,
      manifestDate: isoDay(container.manifestDate),
      manifestDateDefaulted: container.manifestDateDefaulted,
      service: container.serviceName,
      packageCount: container.packageCount,
      createdAt: isoInstant(container.createdAt),
      header: (container.header ?? {}) as Record<string, unknown>,
      columns: CONTAINER_PACKAGE_COLUMNS,
    };
  }
  // The services are kept on the daily manifest's row, its count in its counter shards (lib/manifests/counters.ts).
  const daily = await db.dailyManifest.findFirst({
    where: { id, accountId, environment },
    select: { id: true, manifestDate: true, createdAt: true, services: true },
  });
  if (!daily) return null;
  return {
    type: 'daily',
    id: daily.id,
    containerId: null,
    manifestDate: isoDay(daily.manifestDate),
    manifestDateDefaulted: false,
    service: daily.services.join(', ') || null,
    packageCount: await dailyPackageCount(daily.id),
    createdAt: isoInstant(daily.createdAt),
    header: null,
    columns: DAILY_PACKAGE_COLUMNS,
  };
}

/** The manifest's type and package count, or null when it is not this account's in this environment. */
async function manifestHead(options: PortalScope & { id: string }): Promise<{ type: ManifestType; packageCount: number } | null> {
  const { accountId, environment, id } = options;
  const container = await db.containerManifest.findFirst({ where: { id, accountId, environment }, select: { packageCount: true } });
  if (container) return { type: 'container', packageCount: container.packageCount };
  const daily = await db.dailyManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  return daily ? { type: 'daily', packageCount: await dailyPackageCount(daily.id) } : null;
}

/** A daily manifest's packages, every status: its counter shards summed (at most 16 rows per status). */
async function dailyPackageCount(manifestId: string): Promise<number> {
  const sum = await db.dailyManifestCount.aggregate({ where: { manifestId }, _sum: { packages: true } });
  return sum._sum.packages ?? 0;
}

/**
 * One page of a manifest's packages in manifest order (containers by position, daily manifests by
 * arrival), in keyset pages: `cursor` is the previous page's nextCursor. Each page is one range scan
 * of (manifest_id, position) or (daily_manifest_id, id); the total is the manifest's own count.
 * Null when the manifest is not this account's.
 */
export async function listManifestPackages(
  options: PortalScope & { id: string; cursor?: string; limit?: number },
): Promise<ManifestPackagePage | null> {
  const { accountId, environment, id } = options;
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  const after = decodePageKey(options.cursor);
  const seen = after?.seen ?? 0;
  const head = await manifestHead(options);
  if (!head) return null;
  if (head.type === 'container') {
    const rows = await db.containerPackage.findMany({
      where: { manifestId: id, accountId, environment, ...(after ? { position: { gt: Number(after.key) } } : {}) },
      orderBy: { position: 'asc' },
      take: limit + 1,
      select: { position: true, trackingNumber: true, detail: true },
    });
    return pageOf(rows, { limit, seen, total: head.packageCount }, (r) => BigInt(r.position), (r) => ({
      ...r,
      detail: r.detail as Record<string, unknown>,
    }));
  }
  // The manifest is this account's (manifestHead), so its packages are: no account or environment condition here.
  // With one, a cached generic plan ANDs the account's million-row index into the scan (150 ms a page at 10 M
  // packages, bench/RESULTS.md); without, the one plan there is reads (daily_manifest_id, id) from the cursor on.
  const rows = await db.package.findMany({
    where: { dailyManifestId: id, ...(after ? { id: { gt: after.key } } : {}) },
    orderBy: { id: 'asc' },
    take: limit + 1,
    select: { id: true, trackingNumber: true, data: true },
  });
  return pageOf(rows, { limit, seen, total: head.packageCount }, (r) => r.id, (r, i) => ({
    // Counted from the manifest's first package: the cursor carries how many came before.
    position: seen + i,
    trackingNumber: r.trackingNumber,
    detail: r.data as Record<string, unknown>,
  }));
}

/** The page of `limit + 1` rows read: the first `limit`, and a cursor past the last when there were more. */
function pageOf<R>(
  rows: R[],
  at: { limit: number; seen: number; total: number },
  key: (row: R) => bigint,
  item: (row: R, index: number) => ManifestPackageRow,
): ManifestPackagePage {
  const page = rows.slice(0, at.limit);
  const last = page[page.length - 1];
  return {
    total: at.total,
    limit: at.limit,
    nextCursor: rows.length > at.limit && last !== undefined ? encodePageKey({ key: key(last), seen: at.seen + page.length }) : null,
    items: page.map(item),
  };
}
