import 'server-only';
import { pgPool, pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { withDeadlockRetry } from '@/lib/status/retry';
import {
  containerReadiness,
  packageBatch,
  READINESS_BATCH,
  readinessManifest,
  readinessPackage,
  type ManifestRow,
  type PackageRow,
} from './get-readiness';
import { ReadinessBuilder, type ReadinessManifest } from './readiness';

// Each house's readiness stored as a mask of the regimes it is not ready for (customs_not_ready; migration
// 20261129160000_customs_readiness_flags), so GET /packages?customs_not_ready=<regime> filters an account's houses by an
// indexed column and pages a container without reading it again. The rules stay in TypeScript (lib/customs/readiness.ts):
// triggers only say what changed (a container's version, a daily package's cleared mask), and a read that filters
// recomputes what changed first. A container is recomputed whole (its houses depend on its header and on each other)
// by the same reads and rules as GET /manifests/{id}/customs, so the list holds what `houses_not_ready` counts.
// Acceptance stores the masks with the rows it inserts (acceptedContainerMasks, acceptedPackageMask), so what a read
// recomputes is only what changed after it.

interface Scope {
  accountId: string;
  environment: Environment;
}

/** Stale containers read per query; each is then recomputed alone. */
const CONTAINERS_PER_READ = 100;
/** A container changed again while it was recomputed is read again, this many times at most. */
const CONTAINER_ATTEMPTS = 3;

/** Brings the stored masks of the account's (or one manifest's) houses up to date with their data. */
export async function refreshReadinessFlags(scope: Scope & { manifestId?: string }): Promise<void> {
  await refreshContainers(scope);
  await refreshDailyPackages(scope);
}

type StaleContainer = ManifestRow & { version: string };

function staleContainers(scope: Scope & { manifestId?: string }, after: string, byId?: string) {
  return sql<StaleContainer>`SELECT 0 AS kind, x.id, x.container_id, x.header, x.awb, x.customs_version::text AS version
    FROM container_manifests x
    WHERE x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"
      AND x.customs_checked_version <> x.customs_version ${byId === undefined ? sql.empty : sql`AND x.id = ${byId}`}
      AND x.id > ${after} ORDER BY x.id LIMIT ${CONTAINERS_PER_READ}`;
}

async function refreshContainers(scope: Scope & { manifestId?: string }): Promise<void> {
  let after = '';
  for (;;) {
    const stale = await queryRows(pgPool(), staleContainers(scope, after, scope.manifestId));
    for (const row of stale) await refreshContainer(scope, row);
    const last = stale.at(-1);
    if (stale.length < CONTAINERS_PER_READ || !last) return;
    after = last.id;
  }
}

// The masks are a cache of what the rules say: their writes commit without waiting for the WAL flush (a crash may
// lose the last ones, atomically with the version that says they are current, so the container is computed again).
// Waiting for it cost most of a refresh: 200 containers were 17 s on this machine, each one's commit a flush.

/**
 * Reads the container and its houses without a lock, applies the rules, then writes the masks under the container's
 * row lock (taken first, as amendments, offloads and the lifecycle take it) if its version is still the one read; a
 * change meanwhile means reading it again.
 */
async function refreshContainer(scope: Scope, first: StaleContainer): Promise<void> {
  let row: StaleContainer | undefined = first;
  for (let attempt = 0; row && attempt < CONTAINER_ATTEMPTS; attempt++) {
    const current: StaleContainer = row;
    const packages = await queryRows(pgPool(), packageBatch(current, '-1', READINESS_BATCH));
    // Only the houses not ready are written: most houses of most containers are ready, and a write of the column
    // touches every index of the row (the partial ones read it), so writing all of them cost most of a refresh.
    const notReady = [...containerReadiness(readinessManifest(current), packages, 'only').masks].filter(([, mask]) => mask !== 0);
    const ids = notReady.map(([id]) => id);
    const written = await withDeadlockRetry(() =>
      pgTransaction(async (client) => {
        await execute(client, sql`SET LOCAL synchronous_commit = off`);
        const locked = await queryRow(
          client,
          sql<{ version: string; checked: string }>`SELECT customs_version::text AS version,
              customs_checked_version::text AS checked
            FROM container_manifests WHERE id = ${current.id} FOR NO KEY UPDATE`,
        );
        if (!locked) return true;
        // A concurrent read stored this version while this one computed it: nothing to write.
        if (locked.checked === locked.version) return true;
        if (locked.version !== current.version) return false;
        await execute(
          client,
          sql`UPDATE container_packages x SET customs_not_ready = v.mask
            FROM unnest(${ids}::bigint[], ${notReady.map(([, mask]) => mask)}::smallint[]) AS v(id, mask)
            WHERE x.id = v.id AND x.manifest_id = ${current.id} AND x.customs_not_ready IS DISTINCT FROM v.mask`,
        );
        // The rest are ready now, offloaded ones included (not aboard: the container's filings leave them out).
        await execute(
          client,
          sql`UPDATE container_packages SET customs_not_ready = NULL
            WHERE manifest_id = ${current.id} AND customs_not_ready IS NOT NULL AND NOT (id = ANY(${ids}::bigint[]))`,
        );
        await execute(
          client,
          sql`UPDATE container_manifests SET customs_checked_version = customs_version WHERE id = ${current.id}`,
        );
        return true;
      }),
    );
    if (written) return;
    row = (await queryRows(pgPool(), staleContainers(scope, '', current.id)))[0];
  }
}

/** A daily package is its own consignor and destination: the rules of a daily manifest, one package at a time. */
const DAILY: ReadinessManifest = { id: '', type: 'daily' };

/**
 * A container's houses' masks as it is accepted, in ContainerDetails order, null for a ready house (as refreshContainer
 * stores them): the same rules over the header and details the insert stores. A house that names no house waybill is
 * issued one by the insert, unlike any other (`\0` and its position stand for it); acceptance refuses two alike.
 */
export function acceptedContainerMasks(
  container: { id: string; containerId: string; header: Record<string, unknown>; awb: string | null },
  details: readonly Record<string, unknown>[],
): (number | null)[] {
  const rows: PackageRow[] = details.map((body, position) => {
    const house = (body.Customs as { HouseWaybill?: unknown } | undefined)?.HouseWaybill;
    return {
      key: String(position),
      id: String(position),
      tracking_number: null,
      carrier_barcode: '',
      house_waybill: (typeof house === 'string' ? house.trim().toUpperCase() : '') || `\0${position}`,
      customs_status: null,
      body,
    };
  });
  const manifest = readinessManifest({
    kind: 0,
    id: container.id,
    container_id: container.containerId,
    header: container.header,
    awb: container.awb,
  });
  const { masks } = containerReadiness(manifest, rows, 'only');
  return rows.map((row) => masks.get(row.id) || null);
}

/** A daily package's mask as it is accepted (0 when ready), from the data the insert stores. */
export function acceptedPackageMask(data: Record<string, unknown>): number {
  const builder = new ReadinessBuilder(DAILY, undefined, 'only');
  builder.add([{ id: '', row: 0, trackingNumber: null, carrierBarcode: '', houseWaybill: '', customsStatus: null, body: data }]);
  return builder.masks.get('') ?? 0;
}

/**
 * Daily packages whose mask a change of their data cleared (or never computed), in batches by id. A package's mask
 * is written only if the row is the version read (its xmin), so a change meanwhile leaves it cleared for the next read.
 */
async function refreshDailyPackages(scope: Scope & { manifestId?: string }): Promise<void> {
  let after = '-1';
  for (;;) {
    const batch = await queryRows(
      pgPool(),
      sql<PackageRow & { version: string }>`SELECT x.id::text AS key, x.id::text AS id, x.tracking_number, x.carrier_barcode,
          x.house_waybill, x.customs_status, x.data AS body, x.xmin::text AS version
        FROM packages x
        WHERE x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"
          AND x.customs_not_ready IS NULL ${scope.manifestId === undefined ? sql.empty : sql`AND x.daily_manifest_id = ${scope.manifestId}`}
          AND x.id > ${after}::bigint
        ORDER BY x.id LIMIT ${READINESS_BATCH}`,
    );
    const last = batch.at(-1);
    if (!last) return;
    const builder = new ReadinessBuilder(DAILY, undefined, 'only');
    builder.add(batch.map((p, i) => readinessPackage(p, i)));
    const ids = batch.map((p) => p.id);
    await withDeadlockRetry(() =>
      pgTransaction(async (client) => {
        await execute(client, sql`SET LOCAL synchronous_commit = off`);
        await execute(
          client,
          sql`UPDATE packages x SET customs_not_ready = v.mask
          FROM unnest(${ids}::bigint[], ${batch.map((p) => p.version)}::text[], ${ids.map((id) => builder.masks.get(id) ?? 0)}::smallint[])
            AS v(id, version, mask)
          WHERE x.id = v.id AND x.xmin::text = v.version AND x.customs_not_ready IS NULL`,
        );
      }),
    );
    if (batch.length < READINESS_BATCH) return;
    after = last.key;
  }
}
