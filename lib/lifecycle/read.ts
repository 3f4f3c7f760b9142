import 'server-only';
import { pgPool } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { decodeCursor, encodeCursor, type Cursor } from './cursor';

// The read side: manifests (container and daily) and packages (of both tables) listed newest first with keyset
// pagination, one resource, its packages, a package's timeline. Two tables per resource are read as UNION ALL of
// two branches, each walking its own (account_id, environment, …, created_at, id) index from the cursor
// (docs/decisions/lifecycle.md). Every query is scoped by account and environment: another's id is a 404.

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

/** The keyset condition of one branch (kind k) after cursor c, in the order (created_at DESC, kind DESC, id DESC). */
function after(alias: string, kind: number, cursor: Cursor | undefined, next: (value: unknown) => string): string {
  if (!cursor) return 'TRUE';
  const ts = next(new Date(cursor.t));
  if (kind < cursor.k) return `${alias}.created_at <= ${ts}`;
  if (kind > cursor.k) return `${alias}.created_at < ${ts}`;
  return `(${alias}.created_at, ${alias}.id) < (${ts}, ${next(cursor.i)})`;
}

function params() {
  const values: unknown[] = [];
  return { values, next: (value: unknown) => `$${values.push(value)}` };
}

function likePrefix(value: string): string {
  return `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function page<T extends { kind: number; id: string; created_at: Date }, U>(rows: T[], limit: number, present: (row: T) => U): ListPage<U> {
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
}

interface PackageDbRow {
  kind: number;
  id: string;
  created_at: Date;
  tracking_number: string | null;
  manifest_id: string;
  container_id: string | null;
  service_name: string | null;
  manifest_date: Date | null;
  status: string;
  status_updated_at: Date;
  body: Record<string, unknown>;
}

/** Kind 0: a container's package; kind 1: a daily manifest's. */
function packageBranch(kind: 0 | 1, scope: Scope, query: PackageListQuery, cursor: Cursor | undefined, p: ReturnType<typeof params>, limitParam: string): string {
  const table = kind === 0 ? 'container_packages' : 'packages';
  const manifestColumn = kind === 0 ? 'x.manifest_id' : 'x.daily_manifest_id';
  const where = [`x.account_id = ${p.next(scope.accountId)}::uuid`, `x.environment = ${p.next(scope.environment)}::"Environment"`];
  if (query.status) where.push(`x.status = ${p.next(query.status)}`);
  if (query.manifestId) where.push(`${manifestColumn} = ${p.next(query.manifestId)}`);
  if (query.service) where.push(`x.service_name = ${p.next(query.service)}`);
  if (query.from) where.push(`x.manifest_date >= ${p.next(query.from)}::date`);
  if (query.to) where.push(`x.manifest_date < ${p.next(query.to)}::date + 1`);
  if (query.toPostalCode) where.push(`x.to_postal_code = ${p.next(query.toPostalCode)}`);
  if (query.trackingNumber) where.push(`lower(x.tracking_number) LIKE ${p.next(likePrefix(query.trackingNumber))}`);
  where.push(after('x', kind, cursor, p.next));
  const select =
    kind === 0
      ? `SELECT 0 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.manifest_id, m.container_id, x.service_name, x.manifest_date,
                x.status, x.status_updated_at, x.detail AS body
         FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id`
      : `SELECT 1 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.daily_manifest_id AS manifest_id, NULL::text AS container_id,
                x.service_name, x.manifest_date, x.status, x.status_updated_at, x.data AS body
         FROM packages x`;
  void table;
  return `(${select} WHERE ${where.join(' AND ')} ORDER BY x.created_at DESC, x.id DESC LIMIT ${limitParam})`;
}

export async function listPackages(options: Scope & { query: PackageListQuery }): Promise<ListPage<ReturnType<typeof presentPackage>>> {
  const { query } = options;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'numeric');
  const p = params();
  const limitParam = p.next(query.limit + 1);
  // The ids are text in the branches' output: ordered as numbers, as each branch and the cursor compare them.
  const sql = `SELECT * FROM (${packageBranch(0, options, query, cursor, p, limitParam)} UNION ALL ${packageBranch(1, options, query, cursor, p, limitParam)}) AS u
               ORDER BY created_at DESC, kind DESC, id::bigint DESC LIMIT ${limitParam}`;
  const { rows } = await pgPool().query<PackageDbRow>(sql, p.values);
  return page(rows.map((r) => ({ ...r, id: String(r.id), created_at: r.created_at })), query.limit, presentPackage);
}

export function presentPackage(row: PackageDbRow) {
  const body = row.body;
  return {
    object: 'package' as const,
    ...body,
    TrackingNumber: row.tracking_number,
    ManifestID: row.manifest_id,
    ...(row.kind === 0 ? { ContainerID: row.container_id, ServiceName: row.service_name, ManifestDate: row.manifest_date?.toISOString() ?? null } : {}),
    manifest_type: row.kind === 0 ? ('container' as const) : ('daily' as const),
    status: row.status,
    status_updated_at: row.status_updated_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

const PACKAGE_BY_NUMBER = `
  (SELECT 0 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.manifest_id, m.container_id, x.service_name, x.manifest_date,
          x.status, x.status_updated_at, x.detail AS body
   FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id
   WHERE x.account_id = $1::uuid AND x.environment = $2::"Environment" AND x.tracking_number = $3)
  UNION ALL
  (SELECT 1, x.id::text, x.created_at, x.tracking_number, x.daily_manifest_id, NULL, x.service_name, x.manifest_date, x.status,
          x.status_updated_at, x.data
   FROM packages x WHERE x.account_id = $1::uuid AND x.environment = $2::"Environment" AND x.tracking_number = $3)
  ORDER BY kind LIMIT 1`;

/** GET /packages/{TrackingNumber}: the container's package first, when both tables hold the number (as cancel and simulate pick). */
export async function getPackage(options: Scope & { trackingNumber: string }) {
  const { rows } = await pgPool().query<PackageDbRow>(PACKAGE_BY_NUMBER, [options.accountId, options.environment, options.trackingNumber]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', "No package with this tracking number in this account and environment.");
  return presentPackage(row);
}

interface EventDbRow {
  id: string;
  type: string;
  status: string;
  previous_status: string | null;
  applied: boolean;
  occurred_at: Date;
  location: string | null;
  source: string;
  scan_id: string | null;
  exception_code: string | null;
  exception_text: string | null;
  created_at: Date;
}

/** GET /packages/{TrackingNumber}/events: the timeline, oldest first (all of it: a package has a few dozen events at most). */
export async function listPackageEvents(options: Scope & { trackingNumber: string }) {
  await getPackage(options);
  const { rows } = await pgPool().query<EventDbRow>(
    `SELECT id::text AS id, type, status, previous_status, applied, occurred_at, location, source, scan_id, exception_code, exception_text, created_at
     FROM lifecycle_events WHERE account_id = $1::uuid AND environment = $2::"Environment" AND tracking_number = $3
     ORDER BY occurred_at, id LIMIT 1000`,
    [options.accountId, options.environment, options.trackingNumber],
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
    occurred_at: row.occurred_at.toISOString(),
    location: row.location,
    source: row.source,
    scan_id: row.scan_id,
    exception: row.exception_code === null && row.exception_text === null ? null : { code: row.exception_code, text: row.exception_text },
    created_at: row.created_at.toISOString(),
  };
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
  status: string;
  status_updated_at: Date;
  package_count: number;
  header: Record<string, unknown> | null;
}

function manifestBranch(kind: 0 | 1, scope: Scope, query: ManifestListQuery, cursor: Cursor | undefined, p: ReturnType<typeof params>, limitParam: string): string | undefined {
  if (query.type === 'container' && kind === 1) return undefined;
  if (query.type === 'daily' && kind === 0) return undefined;
  // Daily manifests have no service and no container: a filter on either leaves them out.
  if (kind === 1 && (query.service || query.containerId)) return undefined;
  const where = [`x.account_id = ${p.next(scope.accountId)}::uuid`, `x.environment = ${p.next(scope.environment)}::"Environment"`];
  if (query.status) where.push(`x.status = ${p.next(query.status)}`);
  if (query.service) where.push(`x.service_name = ${p.next(query.service)}`);
  if (query.containerId) where.push(`x.container_id = ${p.next(query.containerId)}`);
  if (query.from) where.push(`x.manifest_date >= ${p.next(query.from)}::date`);
  if (query.to) where.push(`x.manifest_date < ${p.next(query.to)}::date + 1`);
  if (query.q) {
    const prefix = p.next(likePrefix(query.q));
    where.push(kind === 0 ? `(lower(x.id) LIKE ${prefix} OR lower(x.container_id) LIKE ${prefix})` : `lower(x.id) LIKE ${prefix}`);
  }
  where.push(after('x', kind, cursor, p.next));
  const select =
    kind === 0
      ? `SELECT 0 AS kind, x.id, x.created_at, x.container_id, x.service_name, x.manifest_date, x.status, x.status_updated_at,
                x.package_count, x.header FROM container_manifests x`
      : `SELECT 1 AS kind, x.id, x.created_at, NULL::text, NULL::text, x.manifest_date::timestamptz, x.status, x.status_updated_at,
                (SELECT count(*)::int FROM packages pk WHERE pk.daily_manifest_id = x.id), NULL::jsonb FROM daily_manifests x`;
  return `(${select} WHERE ${where.join(' AND ')} ORDER BY x.created_at DESC, x.id DESC LIMIT ${limitParam})`;
}

export async function listManifests(options: Scope & { query: ManifestListQuery }): Promise<ListPage<ReturnType<typeof presentManifest>>> {
  const { query } = options;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const p = params();
  const limitParam = p.next(query.limit + 1);
  const branches = [manifestBranch(0, options, query, cursor, p, limitParam), manifestBranch(1, options, query, cursor, p, limitParam)].filter(
    (b): b is string => b !== undefined,
  );
  if (branches.length === 0) return { object: 'list', data: [], has_more: false, next_cursor: null };
  const sql = `SELECT * FROM (${branches.join(' UNION ALL ')}) AS u ORDER BY created_at DESC, kind DESC, id DESC LIMIT ${limitParam}`;
  const { rows } = await pgPool().query<ManifestDbRow>(sql, p.values);
  return page(rows, query.limit, (row) => presentManifest(row));
}

function isoDay(value: Date | string): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString().slice(0, 10);
}

export function presentManifest(row: ManifestDbRow, totals?: { by_status: Record<string, number>; total_weight_lb: string }) {
  const base = {
    object: 'manifest' as const,
    ...(row.header ?? {}),
    ManifestID: row.id,
    type: row.kind === 0 ? ('container' as const) : ('daily' as const),
    ManifestDate: row.kind === 0 ? new Date(row.manifest_date).toISOString() : isoDay(row.manifest_date),
    PackageCount: row.package_count,
    status: row.status,
    status_updated_at: row.status_updated_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
  return totals ? { ...base, totals: { package_count: row.package_count, ...totals } } : base;
}

const MANIFEST_BY_ID = `
  (SELECT 0 AS kind, x.id, x.created_at, x.container_id, x.service_name, x.manifest_date, x.status, x.status_updated_at, x.package_count, x.header
   FROM container_manifests x WHERE x.account_id = $1::uuid AND x.environment = $2::"Environment" AND x.id = $3)
  UNION ALL
  (SELECT 1, x.id, x.created_at, NULL, NULL, x.manifest_date::timestamptz, x.status, x.status_updated_at,
          (SELECT count(*)::int FROM packages pk WHERE pk.daily_manifest_id = x.id), NULL
   FROM daily_manifests x WHERE x.account_id = $1::uuid AND x.environment = $2::"Environment" AND x.id = $3)`;

/** GET /manifests/{id}: the manifest, its package count by status and the packages' total weight in pounds. */
export async function getManifest(options: Scope & { manifestId: string }) {
  const { rows } = await pgPool().query<ManifestDbRow>(MANIFEST_BY_ID, [options.accountId, options.environment, options.manifestId]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', `No manifest ${options.manifestId} in this account and environment.`);
  const table = row.kind === 0 ? 'container_packages' : 'packages';
  const column = row.kind === 0 ? 'manifest_id' : 'daily_manifest_id';
  const body = row.kind === 0 ? 'detail' : 'data';
  const unit = row.kind === 0 ? `${body}->>'PackageWeightUnit'` : `${body}->>'WeightUnit'`;
  const counts = await pgPool().query<{ status: string; n: number; weight: string | null }>(
    `SELECT status, count(*)::int AS n,
            sum(CASE lower(coalesce(${unit}, 'lb')) WHEN 'kg' THEN (${body}->>'PackageWeight')::numeric * 2.20462
                 WHEN 'oz' THEN (${body}->>'PackageWeight')::numeric / 16 ELSE (${body}->>'PackageWeight')::numeric END)::text AS weight
     FROM ${table} WHERE ${column} = $1 GROUP BY status`,
    [row.id],
  );
  const by_status: Record<string, number> = {};
  let weight = 0;
  for (const c of counts.rows) {
    by_status[c.status] = c.n;
    weight += c.weight === null ? 0 : Number(c.weight);
  }
  return presentManifest(row, { by_status, total_weight_lb: weight.toFixed(2) });
}

/** GET /manifests/{id}/packages: its packages, in the order the manifest lists them (newest first for a daily one). */
export async function listManifestPackages(options: Scope & { manifestId: string; limit: number; cursor?: string }) {
  const manifest = await getManifest(options);
  return listPackages({ ...options, query: { limit: options.limit, cursor: options.cursor, manifestId: manifest.ManifestID } });
}
