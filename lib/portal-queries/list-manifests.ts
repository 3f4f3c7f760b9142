import 'server-only';
import { isoDay, isoInstant } from './dates';
import { pgPool } from '@/lib/db';
import { queryRows, sql, type Sql } from '@/lib/sql';
import { encodeCursor, readCursor } from '@/lib/lifecycle/cursor';
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
  /** Keyset cursors from a previous page: the page of items older than `after`, or newer than `before`. */
  after?: string;
  before?: string;
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
  status: string;
}

/**
 * Container manifests and daily package manifests in one list, newest first (created_at, id), in
 * keyset pages: each table gives at most one page's rows from its (account_id, environment,
 * created_at, id) index, starting at the cursor, and only those are merged. Counts and services are
 * read from the manifest rows (a daily manifest's count: its counter shards, lib/manifests/counters.ts), so a
 * page costs the same with ten packages or ten million behind it (docs/decisions/reads-at-scale.md).
 */
export async function listManifests(options: ListManifestsOptions): Promise<ManifestList> {
  const { accountId, environment, type, service, from, to } = options;
  const q = options.q?.trim() || undefined;
  const limit = Math.min(Math.max(options.limit ?? 25, 1), 100);
  const after = readCursor(options.after);
  const before = after ? undefined : readCursor(options.before);
  const scope = (alias: string) => sql`${sql.id(alias)}.account_id = ${accountId}::uuid AND ${sql.id(alias)}.environment = ${environment}::"Environment"`;

  const containerWhere = [scope('m')];
  const dailyWhere = [scope('d')];
  if (q) {
    const like = containsPattern(q);
    containerWhere.push(sql`(m.id ILIKE ${like} OR m.container_id ILIKE ${like} OR m.id IN (
      SELECT cp.manifest_id FROM container_packages cp
      WHERE cp.account_id = ${accountId}::uuid AND cp.environment = ${environment}::"Environment" AND cp.tracking_number = ${q}))`);
    dailyWhere.push(sql`(d.id ILIKE ${like} OR d.id IN (
      SELECT p.daily_manifest_id FROM packages p
      WHERE p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND p.tracking_number = ${q}))`);
  }
  if (service) {
    containerWhere.push(sql`m.service_name = ${service}`);
    dailyWhere.push(sql`${service}::text = ANY(d.services)`);
  }
  if (from) {
    containerWhere.push(sql`(m.manifest_date AT TIME ZONE 'UTC')::date >= ${from}::date`);
    dailyWhere.push(sql`d.manifest_date >= ${from}::date`);
  }
  if (to) {
    containerWhere.push(sql`(m.manifest_date AT TIME ZONE 'UTC')::date <= ${to}::date`);
    dailyWhere.push(sql`d.manifest_date <= ${to}::date`);
  }
  const key = after ?? before;
  const keyed = (alias: string, where: Sql<unknown>[]) =>
    key
      ? [
          ...where,
          after
            ? sql`(${sql.id(alias)}.created_at, ${sql.id(alias)}.id) < (${key.t}::timestamptz, ${key.i}::text)`
            : sql`(${sql.id(alias)}.created_at, ${sql.id(alias)}.id) > (${key.t}::timestamptz, ${key.i}::text)`,
        ]
      : where;
  const and = (where: Sql<unknown>[]) => sql.join(where, sql` AND `);
  // Newest first; a page before the cursor is read oldest first from the cursor, then turned round.
  const order = before ? sql`created_at ASC, id ASC` : sql`created_at DESC, id DESC`;
  const orderBy = (alias: string) => (before ? sql`${sql.id(alias)}.created_at ASC, ${sql.id(alias)}.id ASC` : sql`${sql.id(alias)}.created_at DESC, ${sql.id(alias)}.id DESC`);
  const take = limit + 1;

  const containers = sql`(
    SELECT 'container' AS type, m.id, m.container_id, ((m.manifest_date AT TIME ZONE 'UTC')::date)::timestamp AT TIME ZONE 'UTC' AS day,
           m.service_name AS service, m.package_count, m.created_at, m.status
    FROM container_manifests m WHERE ${and(keyed('m', containerWhere))}
    ORDER BY ${orderBy('m')} LIMIT ${take})`;
  const dailies = sql`(
    SELECT 'daily' AS type, d.id, NULL AS container_id, d.manifest_date::timestamp AT TIME ZONE 'UTC' AS day,
           array_to_string(d.services, ', ') AS service,
           (SELECT coalesce(sum(c.packages), 0)::int FROM daily_manifest_counts c WHERE c.manifest_id = d.id) AS package_count, d.created_at, d.status
    FROM daily_manifests d WHERE ${and(keyed('d', dailyWhere))}
    ORDER BY ${orderBy('d')} LIMIT ${take})`;
  const union = type === 'container' ? containers : type === 'daily' ? dailies : sql`${containers} UNION ALL ${dailies}`;
  const count = (table: string, alias: string, where: Sql<unknown>[]) => sql`(SELECT count(*) FROM ${sql.id(table)} ${sql.id(alias)} WHERE ${and(where)})`;
  const totalSql =
    type === 'container'
      ? count('container_manifests', 'm', containerWhere)
      : type === 'daily'
        ? count('daily_manifests', 'd', dailyWhere)
        : sql`${count('container_manifests', 'm', containerWhere)} + ${count('daily_manifests', 'd', dailyWhere)}`;

  const [fetched, totals, services] = await Promise.all([
    queryRows(pgPool(), sql<Row>`SELECT * FROM (${union}) items ORDER BY ${order} LIMIT ${take}`),
    queryRows(pgPool(), sql<{ n: string }>`SELECT ${totalSql} AS n`),
    listServices({ accountId, environment }),
  ]);
  const more = fetched.length > limit;
  const page = fetched.slice(0, limit);
  if (before) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  // The API's cursor (lib/lifecycle/cursor.ts); this list orders by (created_at, id) alone, so `k` only rides along.
  // A created_at JavaScript cannot represent gives a token that reads as no cursor (the first page), never a throw.
  const keyOf = (row: Row): string =>
    encodeCursor({ t: Number.isNaN(row.created_at.getTime()) ? '' : row.created_at.toISOString(), k: row.type === 'container' ? 0 : 1, i: row.id });
  return {
    items: page.map(toItem),
    total: Number(totals[0]?.n ?? 0),
    limit,
    // Older items exist past the last one when more were read going forward, or always when paging back.
    nextCursor: last && (before ? true : more) ? keyOf(last) : null,
    // Newer items exist before the first one when the page started after a cursor, or more were read going back.
    prevCursor: first && (after ? true : before ? more : false) ? keyOf(first) : null,
    services,
  };
}

/**
 * Distinct services of the account's manifests in this environment, for the filter: the daily
 * manifests' own lists (one row per day) and, from the (account_id, environment, service_name)
 * index, one probe per distinct container service (a skip scan), never a pass over the packages.
 */
async function listServices({ accountId, environment }: PortalScope): Promise<string[]> {
  const rows = await queryRows(pgPool(), sql<{ service: string }>`
    WITH RECURSIVE container_services AS (
      (SELECT service_name FROM container_manifests
       WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
       ORDER BY service_name LIMIT 1)
      UNION ALL
      SELECT (SELECT m.service_name FROM container_manifests m
              WHERE m.account_id = ${accountId}::uuid AND m.environment = ${environment}::"Environment"
                AND m.service_name > s.service_name
              ORDER BY m.service_name LIMIT 1)
      FROM container_services s WHERE s.service_name IS NOT NULL
    )
    SELECT service_name AS service FROM container_services WHERE service_name IS NOT NULL
    UNION
    SELECT unnest(services) FROM daily_manifests WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
    ORDER BY 1 LIMIT 100`);
  return rows.map((r) => r.service);
}

function toItem(row: Row): ManifestListItem {
  return {
    type: row.type,
    id: row.id,
    containerId: row.container_id,
    manifestDate: isoDay(row.day),
    service: row.service || null,
    packageCount: row.package_count,
    createdAt: isoInstant(row.created_at),
    status: row.status,
  };
}
