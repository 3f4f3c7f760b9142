import 'server-only';
import { pgPool } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { containerUld } from '@/lib/schemas/customs';
import type { TCustomsReadiness } from '@/lib/schemas/customs-api';
import { queryRow, queryRows, sql, type Queryable } from '@/lib/sql';
import { ReadinessBuilder, type ReadinessManifest, type ReadinessPackage } from './readiness';

// GET /manifests/{id}/customs: the manifest (this account's, in this environment, or a 404), its packages read in
// manifest order in batches (a container's 5,000 in one; a daily manifest of any size a batch at a time, so memory
// holds a batch and the listed problems), and the rules of lib/customs/readiness.ts over them.

interface Scope {
  accountId: string;
  environment: Environment;
}

/** Packages per read: a whole container at once (its most), a daily manifest in as many as it takes. */
export const READINESS_BATCH = 5_000;

export interface ManifestRow {
  kind: number;
  id: string;
  container_id: string | null;
  header: Record<string, unknown> | null;
  awb: string | null;
}

export interface PackageRow {
  key: string;
  id: string;
  tracking_number: string | null;
  carrier_barcode: string;
  house_waybill: string;
  customs_status: string | null;
  body: Record<string, unknown>;
}

async function findManifest(on: Queryable, scope: Scope, manifestId: string): Promise<ManifestRow> {
  const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment" AND x.id = ${manifestId}`;
  const row = await queryRow(
    on,
    sql<ManifestRow>`(SELECT 0 AS kind, x.id, x.container_id, x.header, x.awb FROM container_manifests x WHERE ${inScope})
     UNION ALL (SELECT 1, x.id, NULL, NULL, NULL FROM daily_manifests x WHERE ${inScope})`,
  );
  if (!row) throw new AppError('not_found', `No manifest ${manifestId} in this account and environment.`);
  return row;
}

/**
 * One batch of a manifest's packages after `after` (a container's position, a daily package's id), in manifest order;
 * a container's houses offloaded before departure are not aboard and not read.
 */
export function packageBatch(manifest: { kind: number; id: string }, after: string, limit: number) {
  return manifest.kind === 0
    ? sql<PackageRow>`SELECT x.position::text AS key, x.id::text AS id, x.tracking_number, x.carrier_barcode, x.house_waybill, x.customs_status, x.detail AS body
       FROM container_packages x WHERE x.manifest_id = ${manifest.id} AND x.position > ${after}::bigint AND x.offloaded_at IS NULL
       ORDER BY x.position LIMIT ${limit}`
    : sql<PackageRow>`SELECT x.id::text AS key, x.id::text AS id, x.tracking_number, x.carrier_barcode, x.house_waybill, x.customs_status, x.data AS body
       FROM packages x WHERE x.daily_manifest_id = ${manifest.id} AND x.id > ${after}::bigint ORDER BY x.id LIMIT ${limit}`;
}

export async function getCustomsReadiness(options: Scope & { manifestId: string; now?: Date }): Promise<TCustomsReadiness> {
  return (await readManifestReadiness(options)).result(options.now);
}

/** The manifest as the rules read it: a container's header with its AWB column, or a daily manifest. */
export function readinessManifest(row: Omit<ManifestRow, 'kind'> & { kind: number }): ReadinessManifest {
  const container = row.kind === 0;
  const header = container ? { ...(row.header ?? {}), ...(row.awb ? { AWB: row.awb } : {}) } : undefined;
  return {
    id: row.id,
    type: container ? 'container' : 'daily',
    header,
    uld: container
      ? (containerUld({ ...(header as { ULD?: string }), ContainerID: row.container_id ?? undefined }) ?? null)
      : null,
  };
}

/** A stored package as the rules read it; `row` is its ContainerDetails index or its arrival order. */
export function readinessPackage(p: PackageRow, row: number): ReadinessPackage {
  return {
    id: p.id,
    row,
    trackingNumber: p.tracking_number,
    carrierBarcode: p.carrier_barcode,
    houseWaybill: p.house_waybill,
    customsStatus: p.customs_status,
    body: p.body,
  };
}

/**
 * A container's readiness over its houses aboard (one batch, 5,000 at most). A stored container could hold one house
 * waybill twice (acceptance refuses it now, an amendment checks it): each house that shares one is named.
 */
export function containerReadiness(
  manifest: ReadinessManifest,
  packages: readonly PackageRow[],
  collectMasks: boolean | 'only' = false,
): ReadinessBuilder {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const p of packages) {
    if (seen.has(p.house_waybill)) duplicates.add(p.house_waybill);
    seen.add(p.house_waybill);
  }
  const builder = new ReadinessBuilder(manifest, duplicates, collectMasks);
  builder.add(packages.map((p) => readinessPackage(p, Number(p.key))));
  return builder;
}

async function readManifestReadiness(options: Scope & { manifestId: string }): Promise<ReadinessBuilder> {
  const pool = pgPool();
  const row = await findManifest(pool, options, options.manifestId);
  const manifest = readinessManifest(row);
  if (row.kind === 0) return containerReadiness(manifest, await queryRows(pool, packageBatch(row, '-1', READINESS_BATCH)));
  const builder = new ReadinessBuilder(manifest);
  let after = '-1';
  let ordinal = 0;
  for (;;) {
    const batch = await queryRows(pool, packageBatch(row, after, READINESS_BATCH));
    builder.add(batch.map((p) => readinessPackage(p, ordinal++)));
    const last = batch.at(-1);
    if (batch.length < READINESS_BATCH || !last) break;
    after = last.key;
  }
  return builder;
}
