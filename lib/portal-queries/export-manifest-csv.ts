import 'server-only';
import { db } from '@/lib/db';
import { toCsv } from './csv';
import { CONTAINER_PACKAGE_COLUMNS, DAILY_PACKAGE_COLUMNS } from './get-manifest';
import type { PortalScope } from './scope';

const BATCH = 1_000;

/**
 * A manifest's packages as CSV (one column per schema field, formula-looking cells neutralised);
 * null when the manifest is not this account's. At most 5,000 rows for a container, so it is built
 * in memory; daily manifests are read in batches.
 */
export async function exportManifestCsv(
  options: PortalScope & { id: string },
): Promise<{ filename: string; csv: string } | null> {
  const { accountId, environment, id } = options;
  const filename = `${id}-packages.csv`;
  const container = await db.containerManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  if (container) {
    const rows = await db.containerPackage.findMany({
      where: { manifestId: id, accountId, environment },
      orderBy: { position: 'asc' },
      select: { detail: true },
    });
    const values = rows.map((r) => {
      const detail = r.detail as Record<string, unknown>;
      return CONTAINER_PACKAGE_COLUMNS.map((c) => detail[c]);
    });
    return { filename, csv: toCsv(CONTAINER_PACKAGE_COLUMNS, values) };
  }
  const daily = await db.dailyManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  if (!daily) return null;
  const values: unknown[][] = [];
  for (let cursor: bigint | undefined; ;) {
    const batch = await db.package.findMany({
      where: { dailyManifestId: id, accountId, environment, ...(cursor ? { id: { gt: cursor } } : {}) },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true, data: true },
    });
    for (const row of batch) {
      const data = row.data as Record<string, unknown>;
      values.push(DAILY_PACKAGE_COLUMNS.map((c) => data[c]));
    }
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) break;
    cursor = last.id;
  }
  return { filename, csv: toCsv(DAILY_PACKAGE_COLUMNS, values) };
}
