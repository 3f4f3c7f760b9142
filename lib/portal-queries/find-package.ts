import 'server-only';
import { isoDay, isoInstant } from './dates';
import { db } from '@/lib/db';
import { CONTAINER_PACKAGE_COLUMNS, DAILY_PACKAGE_COLUMNS } from './get-manifest';
import type { FoundPackage } from './types';
import type { PortalScope } from './scope';

/**
 * (The portal's Packages page now lists through lib/lifecycle/read.ts; this exact lookup stays for e2e/api/bounded-input.test.ts.)
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
      manifestDate: isoDay(m.manifestDate),
      service: m.serviceName,
      containerId: m.containerId,
      createdAt: isoInstant(m.createdAt),
      detail: inSchemaOrder(inContainer.detail as Record<string, unknown>, CONTAINER_PACKAGE_COLUMNS),
    });
  }
  if (inDaily) {
    found.push({
      kind: 'daily',
      trackingNumber,
      manifestId: inDaily.dailyManifestId,
      manifestDate: isoDay(inDaily.manifestDate),
      service: inDaily.serviceName,
      containerId: null,
      createdAt: isoInstant(inDaily.createdAt),
      detail: inSchemaOrder(inDaily.data as Record<string, unknown>, DAILY_PACKAGE_COLUMNS),
    });
  }
  return found;
}

/** JSONB keeps its own key order; show the fields in the order of the operation's schema. */
function inSchemaOrder(detail: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) if (column in detail) out[column] = detail[column];
  for (const [key, value] of Object.entries(detail)) if (!(key in out)) out[key] = value;
  return out;
}
