import 'server-only';
import { db } from '@/lib/db';
import type { FoundPackage } from './types';
import type { PortalScope } from './scope';

/**
 * A package by its exact tracking number, in container manifests and daily package manifests of
 * this account and environment. Both may hold the same number, so this returns every match.
 */
export async function findPackage(options: PortalScope & { trackingNumber: string }): Promise<FoundPackage[]> {
  const { accountId, environment } = options;
  const trackingNumber = options.trackingNumber.trim();
  if (!trackingNumber) return [];
  const [inContainer, inDaily] = await Promise.all([
    db.containerPackage.findFirst({
      where: { accountId, environment, trackingNumber },
      select: {
        detail: true,
        manifest: { select: { id: true, containerId: true, manifestDate: true, serviceName: true, createdAt: true } },
      },
    }),
    db.package.findFirst({
      where: { accountId, environment, trackingNumber },
      select: { dailyManifestId: true, manifestDate: true, serviceName: true, createdAt: true, data: true },
    }),
  ]);
  const found: FoundPackage[] = [];
  if (inContainer) {
    const m = inContainer.manifest;
    found.push({
      kind: 'container',
      trackingNumber,
      manifestId: m.id,
      manifestDate: m.manifestDate.toISOString().slice(0, 10),
      service: m.serviceName,
      containerId: m.containerId,
      createdAt: m.createdAt.toISOString(),
      detail: inContainer.detail as Record<string, unknown>,
    });
  }
  if (inDaily) {
    found.push({
      kind: 'daily',
      trackingNumber,
      manifestId: inDaily.dailyManifestId,
      manifestDate: inDaily.manifestDate.toISOString().slice(0, 10),
      service: inDaily.serviceName,
      containerId: null,
      createdAt: inDaily.createdAt.toISOString(),
      detail: inDaily.data as Record<string, unknown>,
    });
  }
  return found;
}
