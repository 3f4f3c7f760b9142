import 'server-only';
import { isoDay, isoInstant } from './dates';
import { db } from '@/lib/db';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';
import type { ManifestDetail, ManifestPackagePage, ManifestType } from './types';
import type { PortalScope } from './scope';

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
  const daily = await db.dailyManifest.findFirst({
    where: { id, accountId, environment },
    select: { id: true, manifestDate: true, createdAt: true },
  });
  if (!daily) return null;
  const [count, services] = await Promise.all([
    db.package.count({ where: { dailyManifestId: daily.id, accountId, environment } }),
    db.package.findMany({
      where: { dailyManifestId: daily.id, accountId, environment },
      distinct: ['serviceName'],
      select: { serviceName: true },
      take: 20,
    }),
  ]);
  return {
    type: 'daily',
    id: daily.id,
    containerId: null,
    manifestDate: isoDay(daily.manifestDate),
    manifestDateDefaulted: false,
    service: services.map((s) => s.serviceName).join(', ') || null,
    packageCount: count,
    createdAt: isoInstant(daily.createdAt),
    header: null,
    columns: DAILY_PACKAGE_COLUMNS,
  };
}

async function manifestType(options: PortalScope & { id: string }): Promise<ManifestType | null> {
  const { accountId, environment, id } = options;
  if (await db.containerManifest.count({ where: { id, accountId, environment } })) return 'container';
  if (await db.dailyManifest.count({ where: { id, accountId, environment } })) return 'daily';
  return null;
}

/** One page of a manifest's packages in manifest order; null when the manifest is not this account's. */
export async function listManifestPackages(
  options: PortalScope & { id: string; offset?: number; limit?: number },
): Promise<ManifestPackagePage | null> {
  const { accountId, environment, id } = options;
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 500);
  const offset = Math.max(options.offset ?? 0, 0);
  const type = await manifestType(options);
  if (!type) return null;
  if (type === 'container') {
    const where = { manifestId: id, accountId, environment };
    const [total, rows] = await Promise.all([
      db.containerPackage.count({ where }),
      db.containerPackage.findMany({
        where,
        orderBy: { position: 'asc' },
        skip: offset,
        take: limit,
        select: { position: true, trackingNumber: true, detail: true },
      }),
    ]);
    return { total, offset, limit, items: rows.map((r) => ({ ...r, detail: r.detail as Record<string, unknown> })) };
  }
  const where = { dailyManifestId: id, accountId, environment };
  const [total, rows] = await Promise.all([
    db.package.count({ where }),
    db.package.findMany({
      where,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      skip: offset,
      take: limit,
      select: { trackingNumber: true, data: true },
    }),
  ]);
  return {
    total,
    offset,
    limit,
    items: rows.map((r, i) => ({
      position: offset + i,
      trackingNumber: r.trackingNumber,
      detail: r.data as Record<string, unknown>,
    })),
  };
}
