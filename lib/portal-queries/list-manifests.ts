import 'server-only';
import { isoDay, isoInstant } from './dates';
import { db, Prisma } from '@/lib/db';
import type { ManifestList, ManifestListItem, ManifestType } from './types';
import { containsPattern, type PortalScope } from './scope';

export interface ListManifestsOptions extends PortalScope {
  /** ManifestID or ContainerID (contains, any case) or an exact tracking number. */
  q?: string;
  type?: ManifestType;
  service?: string;
  /** Inclusive manifest days, YYYY-MM-DD. */
  from?: string;
  to?: string;
  offset?: number;
  limit?: number;
}

interface Row {
  type: ManifestType;
  id: string;
  container_id: string | null;
  day: Date;
  service: string | null;
  package_count: number;
  created_at: Date;
  total: bigint;
}

/**
 * Container manifests and daily package manifests in one list, newest first, with offset
 * pagination (a shipper's manifests number in the thousands, not millions).
 */
export async function listManifests(options: ListManifestsOptions): Promise<ManifestList> {
  const { accountId, environment, type, service, from, to } = options;
  const q = options.q?.trim() || undefined;
  const limit = Math.min(Math.max(options.limit ?? 25, 1), 100);
  const offset = Math.max(options.offset ?? 0, 0);
  const scope = (alias: string) =>
    Prisma.sql`${Prisma.raw(alias)}.account_id = ${accountId}::uuid AND ${Prisma.raw(alias)}.environment = ${environment}::"Environment"`;

  const containerWhere = [scope('m')];
  const dailyWhere = [scope('d')];
  if (q) {
    const like = containsPattern(q);
    containerWhere.push(Prisma.sql`(m.id ILIKE ${like} OR m.container_id ILIKE ${like} OR m.id IN (
      SELECT cp.manifest_id FROM container_packages cp
      WHERE cp.account_id = ${accountId}::uuid AND cp.environment = ${environment}::"Environment" AND cp.tracking_number = ${q}))`);
    dailyWhere.push(Prisma.sql`(d.id ILIKE ${like} OR d.id IN (
      SELECT p.daily_manifest_id FROM packages p
      WHERE p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND p.tracking_number = ${q}))`);
  }
  if (service) {
    containerWhere.push(Prisma.sql`m.service_name = ${service}`);
    dailyWhere.push(
      Prisma.sql`EXISTS (SELECT 1 FROM packages p WHERE p.daily_manifest_id = d.id AND p.service_name = ${service})`,
    );
  }
  const outerWhere: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (from) outerWhere.push(Prisma.sql`day >= ${from}::date`);
  if (to) outerWhere.push(Prisma.sql`day <= ${to}::date`);

  const containers = Prisma.sql`
    SELECT 'container' AS type, m.id, m.container_id, (m.manifest_date AT TIME ZONE 'UTC')::date AS day,
           m.service_name AS service, m.package_count, m.created_at
    FROM container_manifests m WHERE ${Prisma.join(containerWhere, ' AND ')}`;
  const dailies = Prisma.sql`
    SELECT 'daily' AS type, d.id, NULL AS container_id, d.manifest_date AS day,
           agg.services AS service, agg.package_count, d.created_at
    FROM daily_manifests d
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS package_count, string_agg(DISTINCT p.service_name, ', ') AS services
      FROM packages p WHERE p.daily_manifest_id = d.id) agg
    WHERE ${Prisma.join(dailyWhere, ' AND ')}`;
  const union = type === 'container' ? containers : type === 'daily' ? dailies : Prisma.sql`${containers} UNION ALL ${dailies}`;

  const [rows, services] = await Promise.all([
    db.$queryRaw<Row[]>`
      SELECT *, count(*) OVER () AS total FROM (${union}) items
      WHERE ${Prisma.join(outerWhere, ' AND ')}
      ORDER BY created_at DESC, id DESC
      LIMIT ${limit} OFFSET ${offset}`,
    listServices({ accountId, environment }),
  ]);
  // Past the last page the window count is lost with the rows; count again so the pager can recover.
  const total = rows[0] ? Number(rows[0].total) : offset > 0 ? await countAll(union, outerWhere) : 0;
  return { items: rows.map(toItem), total, offset, limit, services };
}

async function countAll(union: Prisma.Sql, where: Prisma.Sql[]): Promise<number> {
  const [row] = await db.$queryRaw<
    { n: bigint }[]
  >`SELECT count(*) AS n FROM (${union}) items WHERE ${Prisma.join(where, ' AND ')}`;
  return Number(row?.n ?? 0);
}

async function listServices({ accountId, environment }: PortalScope): Promise<string[]> {
  const rows = await db.$queryRaw<{ service: string }[]>`
    SELECT service_name AS service FROM container_manifests WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
    UNION
    SELECT service_name FROM packages WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
    ORDER BY 1 LIMIT 100`;
  return rows.map((r) => r.service);
}

function toItem(row: Row): ManifestListItem {
  return {
    type: row.type,
    id: row.id,
    containerId: row.container_id,
    manifestDate: isoDay(row.day),
    service: row.service,
    packageCount: row.package_count,
    createdAt: isoInstant(row.created_at),
  };
}
