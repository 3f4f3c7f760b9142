import 'server-only';
import type { TCharge } from '@/lib/schemas/rate';
import { pgPool } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError, validationError } from '@/lib/errors/app-error';
import type { TAdjustment, TManifestResponse } from '@/lib/schemas/lifecycle';
import { dailyPackageCount } from '@/lib/sharded-counters';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { containerUld } from '@/lib/schemas/customs';
import { queryRow, queryRows, sql, type Sql } from '@/lib/sql';
import { trackingUrl } from '@/lib/tracking/tracking-url';
import { decodeCursor, encodeCursor, type Cursor } from '@/lib/pagination/keyset';
import type { Source as EventSource } from '@/lib/status/engine';
import type { CustomsOutcome, PackageStatus } from '@/lib/schemas/statuses';
import type { CustomsRegime } from '@/lib/schemas/customs-api';
import { refreshReadinessFlags } from '@/lib/customs/readiness-flags';
import { regimeBit } from '@/lib/customs/readiness';

// The read side, newest first in keyset pages. Two tables per resource are read as UNION ALL of two branches, each
// walking its own index from the cursor (docs/decisions/lifecycle.md); scoped by account and environment.

interface Scope {
  accountId: string;
  environment: Environment;
}

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Keyset after cursor c in (created_at DESC, kind DESC, id DESC); c.t is any text PostgreSQL reads as a timestamptz. */
function after(kind: number, cursor: Cursor | undefined): Sql<never> {
  if (!cursor) return sql`TRUE`;
  const ts = sql`${cursor.t}::timestamptz`;
  if (kind < cursor.k) return sql`x.created_at <= ${ts}`;
  if (kind > cursor.k) return sql`x.created_at < ${ts}`;
  return sql`(x.created_at, x.id) < (${ts}, ${cursor.i})`;
}

/** An ISO timestamp, or null for a stored date JavaScript cannot represent (a read must never 500 on one). */
function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function likePrefix(value: string): string {
  return `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function page<T extends { kind: number; id: string; created_at: Date }, U>(
  rows: T[],
  limit: number,
  present: (row: T) => U,
): ListPage<U> {
  const has_more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    object: 'list',
    data: shown.map(present),
    has_more,
    next_cursor: has_more && last ? encodeCursor({ t: last.created_at.toISOString(), k: last.kind, i: last.id }) : null,
  };
}

// ---------------------------------------------------------------- packages

export interface PackageListQuery {
  limit: number;
  cursor?: string;
  status?: string;
  manifestId?: string;
  service?: string;
  from?: string;
  to?: string;
  toPostalCode?: string;
  trackingNumber?: string;
  /** Houses not ready for this regime: their stored masks brought up to date by withCustomsFilter before a branch is built. */
  customsNotReady?: CustomsRegime;
  /** Set by withCustomsFilter: the stored masks the filter reads are current. */
  readinessCurrent?: boolean;
}

interface PackageDbRow {
  kind: number;
  id: string;
  created_at: Date;
  tracking_number: string | null;
  carrier_barcode: string;
  manifest_id: string;
  container_id: string | null;
  service_name: string | null;
  manifest_date: Date | null;
  status: PackageStatus;
  status_updated_at: Date;
  house_waybill: string;
  customs_status: string | null;
  customs_status_updated_at: Date | null;
  /** Priced at acceptance (lib/billing/pricing.ts); null for a package accepted before pricing existed. */
  charge: TCharge | null;
  /** A container's house offloaded before departure (lib/customs/offload-package.ts); null while aboard, and for a daily package. */
  offloaded_at: Date | null;
  body: Record<string, unknown>;
}

export type PackageFilters = Omit<PackageListQuery, 'limit' | 'cursor'>;

const CUSTOMS_COLUMNS = sql`x.house_waybill, x.customs_status, x.customs_status_updated_at, x.charge`;

/** One package table's rows after the cursor: the list and the CSV export both read through it, so a filter is written once. */
export function packageBranch(
  kind: 0 | 1,
  scope: Scope,
  query: PackageFilters,
  cursor: Cursor | undefined,
  limit: number,
): Sql<never> {
  const manifestColumn = kind === 0 ? sql`x.manifest_id` : sql`x.daily_manifest_id`;
  const where: Sql<never>[] = [
    sql`x.account_id = ${scope.accountId}::uuid`,
    sql`x.environment = ${scope.environment}::"Environment"`,
  ];
  if (query.status) where.push(sql`x.status = ${query.status}`);
  if (query.manifestId) where.push(sql`${manifestColumn} = ${query.manifestId}`);
  if (query.service) where.push(sql`x.service_name = ${query.service}`);
  if (query.from) where.push(sql`x.manifest_date >= ${query.from}::date`);
  if (query.to) where.push(sql`x.manifest_date < ${query.to}::date + 1`);
  if (query.toPostalCode) where.push(sql`x.to_postal_code = ${query.toPostalCode}`);
  if (query.trackingNumber) where.push(sql`lower(x.tracking_number) LIKE ${likePrefix(query.trackingNumber)}`);
  if (query.customsNotReady) {
    if (!query.readinessCurrent)
      throw new Error('customs_not_ready must be brought up to date (withCustomsFilter) before the query is built');
    where.push(notReadyFor(query.customsNotReady));
  }
  where.push(after(kind, cursor));
  const select =
    kind === 0
      ? sql`SELECT 0 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.carrier_barcode, x.manifest_id, m.container_id, x.service_name,
                x.manifest_date, x.status, x.status_updated_at, ${CUSTOMS_COLUMNS}, x.offloaded_at, x.detail AS body
         FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id`
      : sql`SELECT 1 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.carrier_barcode, x.daily_manifest_id AS manifest_id,
                NULL::text AS container_id, x.service_name, x.manifest_date, x.status, x.status_updated_at, ${CUSTOMS_COLUMNS}, NULL::timestamptz AS offloaded_at, x.data AS body
         FROM packages x`;
  return sql`(${select} WHERE ${sql.join(where, sql` AND `)} ORDER BY x.created_at DESC, x.id DESC LIMIT ${limit})`;
}

/**
 * A house not ready for the regime by its stored mask (lib/customs/readiness-flags.ts). `<> 0` is written out so the
 * planner reads the partial index of houses not ready for any regime, newest first.
 */
function notReadyFor(regime: CustomsRegime): Sql<never> {
  return sql`x.customs_not_ready <> 0 AND (x.customs_not_ready & ${regimeBit(regime)}::smallint) <> 0`;
}

/**
 * The filters with `customs_not_ready` made current: the stored masks of the account's houses (or the one manifest's)
 * recomputed where a container or a package changed since, so the branches filter by a column
 * (docs/decisions/customs.md).
 */
export async function withCustomsFilter<F extends PackageFilters>(scope: Scope, filters: F): Promise<F> {
  if (!filters.customsNotReady || filters.readinessCurrent) return filters;
  await refreshReadinessFlags({ ...scope, manifestId: filters.manifestId });
  return { ...filters, readinessCurrent: true };
}

export async function listPackages(
  options: Scope & { query: PackageListQuery },
): Promise<ListPage<ReturnType<typeof presentPackage>>> {
  const query = await withCustomsFilter(options, options.query);
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'numeric');
  const limit = query.limit + 1;
  // The ids are text in the branches' output: ordered as numbers, as each branch and the cursor compare them.
  const rows = await queryRows(
    pgPool(),
    sql<PackageDbRow>`SELECT * FROM (${packageBranch(0, options, query, cursor, limit)} UNION ALL ${packageBranch(1, options, query, cursor, limit)}) AS u
               ORDER BY created_at DESC, kind DESC, id::bigint DESC LIMIT ${limit}`,
  );
  return page(
    rows.map((r) => ({ ...r, id: String(r.id), created_at: r.created_at })),
    query.limit,
    (row) => presentPackage(row, options.environment),
  );
}

export function presentPackage(row: PackageDbRow, environment: Environment) {
  const body = row.body;
  return {
    object: 'package' as const,
    ...body,
    TrackingNumber: row.tracking_number,
    carrier_barcode: row.carrier_barcode,
    tracking_url: trackingUrl(environment, row.carrier_barcode),
    // Ours or the shipper's (Customs.HouseWaybill, which the body keeps as sent): the house under the master AWB.
    house_waybill: row.house_waybill,
    ManifestID: row.manifest_id,
    ...(row.kind === 0
      ? { ContainerID: row.container_id, ServiceName: row.service_name, ManifestDate: iso(row.manifest_date) }
      : {}),
    manifest_type: row.kind === 0 ? ('container' as const) : ('daily' as const),
    status: row.status,
    status_updated_at: iso(row.status_updated_at),
    customs_status: (row.customs_status ?? null) as CustomsOutcome | null,
    customs_status_updated_at: iso(row.customs_status_updated_at),
    charge: row.charge ?? null,
    // Only once it happened: a held house taken out of its container, which departed without it.
    ...(row.offloaded_at ? { offloaded_at: iso(row.offloaded_at) } : {}),
    created_at: iso(row.created_at),
  };
}

/** By carrier barcode, or tracking number as stored, then in any case; the container's package first (as cancel picks). */
function packageLookup(scope: Scope, identifier: string): Sql<PackageDbRow> {
  const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"`;
  const match = isCarrierBarcode(identifier)
    ? sql`x.carrier_barcode = ${normalizeCarrierBarcode(identifier)}`
    : sql`lower(x.tracking_number) = lower(${identifier})`;
  const exact = sql`x.tracking_number IS NOT DISTINCT FROM ${identifier}`;
  return sql<PackageDbRow>`
  (SELECT 0 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.carrier_barcode, x.manifest_id, m.container_id, x.service_name,
          x.manifest_date, x.status, x.status_updated_at, ${CUSTOMS_COLUMNS}, x.offloaded_at, x.detail AS body, ${exact} AS exact
   FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id WHERE ${inScope} AND ${match})
  UNION ALL
  (SELECT 1, x.id::text, x.created_at, x.tracking_number, x.carrier_barcode, x.daily_manifest_id, NULL, x.service_name, x.manifest_date, x.status,
          x.status_updated_at, ${CUSTOMS_COLUMNS}, NULL::timestamptz AS offloaded_at, x.data, ${exact}
   FROM packages x WHERE ${inScope} AND ${match})
  ORDER BY exact DESC, kind LIMIT 1`;
}

export async function getPackage(options: Scope & { trackingNumber: string }) {
  const row = await queryRow(pgPool(), packageLookup(options, options.trackingNumber));
  if (!row)
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  return presentPackage(row, options.environment);
}

interface EventDbRow {
  id: string;
  type: string;
  status: string;
  previous_status: string | null;
  applied: boolean;
  occurred_at: Date;
  location: string | null;
  source: EventSource;
  scan_id: string | null;
  exception_code: string | null;
  exception_text: string | null;
  details: Record<string, unknown> | null;
  created_at: Date;
}

/** GET /packages/{TrackingNumber}/events: the timeline, oldest first (all of it: a package has a few dozen events at most). */
export async function listPackageEvents(options: Scope & { trackingNumber: string }) {
  const found = await queryRow(pgPool(), packageLookup(options, options.trackingNumber));
  if (!found)
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  const rows = await queryRows(
    pgPool(),
    sql<EventDbRow>`SELECT id::text AS id, type, status, previous_status, applied, occurred_at, location, source, scan_id, exception_code, exception_text,
            details, created_at
     FROM lifecycle_events WHERE account_id = ${options.accountId}::uuid AND environment = ${options.environment}::"Environment"
       AND ${found.tracking_number === null ? sql`manifest_id = ${found.manifest_id} AND carrier_barcode = ${found.carrier_barcode}` : sql`tracking_number = ${found.tracking_number} AND manifest_id = ${found.manifest_id}`}
     ORDER BY lifecycle_events.occurred_at, lifecycle_events.id LIMIT 1000`,
  );
  return { object: 'list' as const, data: rows.map(presentEvent), has_more: false, next_cursor: null };
}

export function presentEvent(row: EventDbRow) {
  return {
    object: 'event' as const,
    id: `lev_${row.id}`,
    type: row.type,
    status: row.status,
    previous_status: row.previous_status,
    applied: row.applied,
    occurred_at: iso(row.occurred_at),
    location: row.location,
    source: row.source,
    scan_id: row.scan_id,
    exception:
      row.exception_code === null && row.exception_text === null ? null : { code: row.exception_code, text: row.exception_text },
    // A customs outcome's reference and text; an amendment's fields.
    ...(row.type.startsWith('customs.')
      ? { customs: { reference: detailText(row.details, 'reference'), text: detailText(row.details, 'text') } }
      : {}),
    ...(row.type === 'package.amended' ? { amended_fields: detailList(row.details, 'fields') } : {}),
    // A re-rating's before, after and reason are stored with its event as they are shown (lib/billing/adjust.ts).
    ...(row.type === 'package.adjusted' && row.details ? { adjustment: row.details as TAdjustment } : {}),
    created_at: iso(row.created_at),
  };
}

function detailText(details: Record<string, unknown> | null | undefined, key: string): string | null {
  const value = details?.[key];
  return typeof value === 'string' ? value : null;
}

function detailList(details: Record<string, unknown> | null | undefined, key: string): string[] {
  const value = details?.[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

// ---------------------------------------------------------------- manifests

export interface ManifestListQuery {
  limit: number;
  cursor?: string;
  type?: 'container' | 'daily';
  status?: string;
  service?: string;
  from?: string;
  to?: string;
  containerId?: string;
  q?: string;
}

interface ManifestDbRow {
  kind: number;
  id: string;
  created_at: Date;
  container_id: string | null;
  service_name: string | null;
  manifest_date: Date | string;
  manifest_date_defaulted: boolean;
  services: string[];
  status: string;
  status_updated_at: Date;
  package_count: number;
  header: Record<string, unknown> | null;
  customs_status: string | null;
}

/** A manifest row's columns in ManifestDbRow's order, `x` being a container_manifests (kind 0) or daily_manifests (1) row. */
function manifestColumns(kind: 0 | 1): Sql<never> {
  // A daily manifest's count is its counter shards summed, never counted; its day is read as that day's UTC midnight.
  return kind === 0
    ? sql`0 AS kind, x.id, x.created_at, x.container_id, x.service_name, x.manifest_date, x.manifest_date_defaulted,
          ARRAY[x.service_name] AS services, x.status, x.status_updated_at, x.package_count, x.header, x.customs_status`
    : sql`1 AS kind, x.id, x.created_at, NULL::text AS container_id, NULL::text AS service_name,
          x.manifest_date::timestamp AT TIME ZONE 'UTC' AS manifest_date, false AS manifest_date_defaulted, x.services,
          x.status, x.status_updated_at, ${dailyPackageCount()} AS package_count, NULL::jsonb AS header, NULL::text AS customs_status`;
}

/**
 * `q`: the start of the ManifestID or ContainerID, or a package's whole tracking number (any case). Each part reads an
 * index, so the planner may take the few matching manifests first instead of filtering the account's one by one.
 */
function manifestSearch(kind: 0 | 1, scope: Scope, q: string): Sql<never> {
  const inScope = (alias: string) =>
    sql`${sql.id(alias)}.account_id = ${scope.accountId}::uuid AND ${sql.id(alias)}.environment = ${scope.environment}::"Environment"`;
  const prefix = likePrefix(q);
  const number = q.toLowerCase();
  return kind === 0
    ? sql`x.id IN (
        SELECT m.id FROM container_manifests m WHERE ${inScope('m')} AND (lower(m.id) LIKE ${prefix} OR lower(m.container_id) LIKE ${prefix})
        UNION ALL
        SELECT p.manifest_id FROM container_packages p WHERE ${inScope('p')} AND lower(p.tracking_number) = ${number})`
    : sql`x.id IN (
        SELECT d.id FROM daily_manifests d WHERE ${inScope('d')} AND lower(d.id) LIKE ${prefix}
        UNION ALL
        SELECT p.daily_manifest_id FROM packages p WHERE ${inScope('p')} AND lower(p.tracking_number) = ${number})`;
}

function manifestBranch(
  kind: 0 | 1,
  scope: Scope,
  query: ManifestListQuery,
  cursor: Cursor | undefined,
  limit: number,
): Sql<never> | undefined {
  if (query.type === 'container' && kind === 1) return undefined;
  if (query.type === 'daily' && kind === 0) return undefined;
  // Daily manifests have no container: a filter on one leaves them out.
  if (kind === 1 && query.containerId) return undefined;
  const where: Sql<never>[] = [
    sql`x.account_id = ${scope.accountId}::uuid`,
    sql`x.environment = ${scope.environment}::"Environment"`,
  ];
  if (query.status) where.push(sql`x.status = ${query.status}`);
  // A container has one service (indexed); a daily manifest the services of its packages, filtered on the rows walked.
  if (query.service)
    where.push(kind === 0 ? sql`x.service_name = ${query.service}` : sql`${query.service}::text = ANY(x.services)`);
  if (query.containerId) where.push(sql`x.container_id = ${query.containerId}`);
  if (query.from) where.push(sql`x.manifest_date >= ${query.from}::date`);
  if (query.to) where.push(sql`x.manifest_date < ${query.to}::date + 1`);
  if (query.q) where.push(manifestSearch(kind, scope, query.q));
  where.push(after(kind, cursor));
  const table = kind === 0 ? sql.id('container_manifests') : sql.id('daily_manifests');
  return sql`(SELECT ${manifestColumns(kind)} FROM ${table} x WHERE ${sql.join(where, sql` AND `)} ORDER BY x.created_at DESC, x.id DESC LIMIT ${limit})`;
}

export async function listManifests(options: Scope & { query: ManifestListQuery }): Promise<ListPage<TManifestResponse>> {
  const { query } = options;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const limit = query.limit + 1;
  const branches = [manifestBranch(0, options, query, cursor, limit), manifestBranch(1, options, query, cursor, limit)].filter(
    (b): b is Sql<never> => b !== undefined,
  );
  if (branches.length === 0) return { object: 'list', data: [], has_more: false, next_cursor: null };
  const rows = await queryRows(
    pgPool(),
    sql<ManifestDbRow>`SELECT * FROM (${sql.join(branches, sql` UNION ALL `)}) AS u ORDER BY created_at DESC, kind DESC, id DESC LIMIT ${limit}`,
  );
  return page(rows, query.limit, (row) => presentManifest(row));
}

function isoDay(value: Date | string): string | null {
  return iso(value)?.slice(0, 10) ?? null;
}

function uldOf(row: ManifestDbRow): { ULD?: string } {
  const uld = containerUld({ ...(row.header as { ULD?: string } | null), ContainerID: row.container_id ?? undefined });
  return uld ? { ULD: uld } : {};
}

export function presentManifest(
  row: ManifestDbRow,
  totals?: { by_status: Record<string, number>; total_weight_lb: string },
): TManifestResponse {
  const container = row.kind === 0;
  const base = {
    object: 'manifest' as const,
    ...(row.header ?? {}),
    ManifestID: row.id,
    type: container ? ('container' as const) : ('daily' as const),
    // The header holds them too, but a row is what the service stored: the columns say them whatever the header kept.
    ...(container ? { ContainerID: row.container_id ?? '', ServiceName: row.service_name ?? '' } : {}),
    // A container sent without a ULD whose ContainerID is one (AKE12345XH) reads with it: the ContainerID names the unit.
    ...(container ? uldOf(row) : {}),
    // The container's own customs outcome (its houses' are on each package): a do_not_load holds its departure.
    ...(container ? { customs_status: (row.customs_status ?? null) as CustomsOutcome | null } : {}),
    ManifestDate: container ? iso(row.manifest_date) : isoDay(row.manifest_date),
    manifest_date_defaulted: row.manifest_date_defaulted,
    services: row.services.filter((s) => s !== ''),
    PackageCount: row.package_count,
    status: row.status,
    status_updated_at: iso(row.status_updated_at),
    created_at: iso(row.created_at),
  };
  return totals ? { ...base, totals: { package_count: row.package_count, ...totals } } : base;
}

const manifestById = (scope: Scope, manifestId: string) => sql<ManifestDbRow>`
  (SELECT ${manifestColumns(0)} FROM container_manifests x
   WHERE x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment" AND x.id = ${manifestId})
  UNION ALL
  (SELECT ${manifestColumns(1)} FROM daily_manifests x
   WHERE x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment" AND x.id = ${manifestId})`;

async function findManifest(options: Scope & { manifestId: string }): Promise<ManifestDbRow> {
  const row = await queryRow(pgPool(), manifestById(options, options.manifestId));
  if (!row) throw new AppError('not_found', `No manifest ${options.manifestId} in this account and environment.`);
  return row;
}

/** A daily manifest's counts come from its counter shards, a container's (5,000 packages at most) from its packages. */
export async function getManifest(options: Scope & { manifestId: string }): Promise<TManifestResponse> {
  const row = await findManifest(options);
  const counts = await queryRows(
    pgPool(),
    row.kind === 0
      ? sql<{ status: string; n: number; weight: string | null }>`SELECT status, count(*)::int AS n,
              sum(package_weight_lb(detail->>'PackageWeight', detail->>'PackageWeightUnit'))::text AS weight
         FROM container_packages WHERE manifest_id = ${row.id} GROUP BY status`
      : sql<{
          status: string;
          n: number;
          weight: string | null;
        }>`SELECT status, sum(packages)::int AS n, sum(weight_lb)::text AS weight
         FROM daily_manifest_counts WHERE manifest_id = ${row.id} GROUP BY status`,
  );
  const by_status: Record<string, number> = {};
  let weight = 0;
  for (const c of counts) {
    // A status every package has left keeps its (zeroed) counter rows: not shown, as a count would not show it.
    if (c.n === 0) continue;
    by_status[c.status] = c.n;
    weight += c.weight === null ? 0 : Number(c.weight);
  }
  return presentManifest(row, { by_status, total_weight_lb: weight.toFixed(2) });
}

/**
 * In the order the manifest lists them, as its handover document does: a container's by position, a daily manifest's
 * by arrival. A page is one range scan from the cursor, whatever the manifest's size.
 */
export async function listManifestPackages(
  options: Scope & { manifestId: string; limit: number; cursor?: string; customsNotReady?: CustomsRegime },
): Promise<ListPage<ReturnType<typeof presentPackage>>> {
  // Only whether it exists (one row by primary key) and its kind: the page does not show the manifest's totals.
  const manifest = await findManifest(options);
  const kind = manifest.kind === 0 ? 0 : 1;
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor, 'numeric');
  if (cursor && cursor.k !== kind)
    throw validationError([{ path: 'cursor', message: 'must be a next_cursor value from a previous page of this list' }]);
  const from = cursor?.i ?? '-1';
  const limit = options.limit + 1;
  // Stored masks, recomputed only when the manifest changed since: a page is one range scan, not the manifest's rules.
  if (options.customsNotReady) await refreshReadinessFlags({ ...options, manifestId: manifest.id });
  const only = options.customsNotReady ? sql`AND ${notReadyFor(options.customsNotReady)}` : sql``;
  // The manifest is this account's, so its packages are: with an account condition, a cached generic plan ANDs the
  // account's million-row index into the scan; without, the plan reads the manifest's index from the cursor on.
  const rows = await queryRows(
    pgPool(),
    kind === 0
      ? sql<
          PackageDbRow & { key: string }
        >`SELECT 0 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.carrier_barcode, x.manifest_id,
              ${manifest.container_id}::text AS container_id, x.service_name, x.manifest_date, x.status, x.status_updated_at,
              ${CUSTOMS_COLUMNS}, x.offloaded_at, x.detail AS body, x.position::text AS key
         FROM container_packages x WHERE x.manifest_id = ${manifest.id} AND x.position > ${from}::bigint ${only} ORDER BY x.position LIMIT ${limit}`
      : sql<
          PackageDbRow & { key: string }
        >`SELECT 1 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.carrier_barcode, x.daily_manifest_id AS manifest_id,
              NULL::text AS container_id, x.service_name, x.manifest_date, x.status, x.status_updated_at, ${CUSTOMS_COLUMNS}, NULL::timestamptz AS offloaded_at, x.data AS body,
              x.id::text AS key
         FROM packages x WHERE x.daily_manifest_id = ${manifest.id} AND x.id > ${from}::bigint ${only} ORDER BY x.id LIMIT ${limit}`,
  );
  const shown = rows.slice(0, options.limit);
  const last = shown.at(-1);
  const has_more = rows.length > options.limit;
  return {
    object: 'list',
    data: shown.map((row) => presentPackage(row, options.environment)),
    has_more,
    // The time only keeps the lists' one cursor format; an unrepresentable stored time is the earliest a cursor holds.
    next_cursor: has_more && last ? encodeCursor({ t: iso(last.created_at) ?? CURSOR_EPOCH, k: kind, i: last.key }) : null,
  };
}

const CURSOR_EPOCH = '2000-01-01T00:00:00.000Z';

/** For the portal's filter: a skip scan of the service index and the daily manifests' own lists, never the packages. */
export async function listManifestServices(scope: Scope): Promise<string[]> {
  const rows = await queryRows(
    pgPool(),
    sql<{ service: string }>`
    WITH RECURSIVE container_services AS (
      (SELECT service_name FROM container_manifests
       WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
       ORDER BY service_name LIMIT 1)
      UNION ALL
      SELECT (SELECT m.service_name FROM container_manifests m
              WHERE m.account_id = ${scope.accountId}::uuid AND m.environment = ${scope.environment}::"Environment"
                AND m.service_name > s.service_name
              ORDER BY m.service_name LIMIT 1)
      FROM container_services s WHERE s.service_name IS NOT NULL
    )
    SELECT service_name AS service FROM container_services WHERE service_name IS NOT NULL
    UNION
    SELECT unnest(services) FROM daily_manifests WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
    ORDER BY 1 LIMIT 100`,
  );
  return rows.map((r) => r.service).filter((s) => s !== '');
}
