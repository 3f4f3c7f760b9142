import 'server-only';
import { pgPool } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { PackageListQuery } from '@/lib/lifecycle/read';
import { csvCell } from '@/lib/portal-queries/csv';
import { csvLineSql } from '@/lib/portal-queries/csv-sql';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';
import { queryRow, sql, type Sql } from '@/lib/sql';

// Every package of a filtered set as CSV, streamed: keyset batches in the read API's own order (GET /packages,
// lib/lifecycle/read.ts listPackages: newest first, container before daily at the same instant, stable while
// rows are inserted) and the same filters, each batch read only when the reader has taken the previous one
// (one batch in flight while one is sent), so memory stays flat however many rows there are.
//
// PostgreSQL writes the CSV text (csv-sql.ts: csv.ts's quoting and formula rules) and a batch comes back as
// one row holding its text and its last key: Node neither parses rows nor builds per-cell strings. The cells
// are what the list API presents: the row's columns for the lifecycle fields (timestamps as toISOString()
// writes them), for a container package also ContainerID, ServiceName and ManifestDate, and every other
// field as the stored JSON holds it (->> text, as the manifest export has always written them).

/** Rows per batch: large enough that the per-query cost is small next to the rows, small enough to hold. */
export const EXPORT_BATCH = 5_000;

const LEAD = ['TrackingNumber', 'status', 'status_updated_at', 'ManifestID', 'manifest_type', 'ContainerID', 'ServiceName', 'ManifestDate', 'created_at'];
/** The lifecycle columns, then every field of either package schema once, in schema order. */
export const PACKAGE_EXPORT_COLUMNS: readonly string[] = [
  ...LEAD,
  ...[...new Set([...Object.keys(ZPackage.shape), ...Object.keys(ZContainerDetail.shape)])].filter((c) => !LEAD.includes(c)),
];

type Filters = Omit<PackageListQuery, 'limit' | 'cursor'>;
interface Cursor {
  t: string;
  k: number;
  i: string;
}

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds, Z). */
const iso = (value: Sql<unknown>) => sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function likePrefix(value: string): string {
  return `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One table's next rows after the cursor (lib/lifecycle/read.ts packageBranch's filters and order). */
function branch(kind: 0 | 1, scope: { accountId: string; environment: Environment }, filters: Filters, cursor: Cursor | undefined, limit: number): Sql<never> {
  const manifestColumn = kind === 0 ? sql`x.manifest_id` : sql`x.daily_manifest_id`;
  const where: Sql<unknown>[] = [sql`x.account_id = ${scope.accountId}::uuid`, sql`x.environment = ${scope.environment}::"Environment"`];
  if (filters.status) where.push(sql`x.status = ${filters.status}`);
  if (filters.manifestId) where.push(sql`${manifestColumn} = ${filters.manifestId}`);
  if (filters.service) where.push(sql`x.service_name = ${filters.service}`);
  if (filters.from) where.push(sql`x.manifest_date >= ${filters.from}::date`);
  if (filters.to) where.push(sql`x.manifest_date < ${filters.to}::date + 1`);
  if (filters.toPostalCode) where.push(sql`x.to_postal_code = ${filters.toPostalCode}`);
  if (filters.trackingNumber) where.push(sql`lower(x.tracking_number) LIKE ${likePrefix(filters.trackingNumber)}`);
  if (cursor) {
    if (kind < cursor.k) where.push(sql`x.created_at <= ${cursor.t}::timestamptz`);
    else if (kind > cursor.k) where.push(sql`x.created_at < ${cursor.t}::timestamptz`);
    else where.push(sql`(x.created_at, x.id) < (${cursor.t}::timestamptz, ${cursor.i}::bigint)`);
  }
  const select =
    kind === 0
      ? sql`SELECT 0 AS kind, x.id, x.created_at, x.tracking_number, x.manifest_id, m.container_id, x.service_name, x.manifest_date,
               x.status, x.status_updated_at, x.detail AS body
            FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id`
      : sql`SELECT 1 AS kind, x.id, x.created_at, x.tracking_number, x.daily_manifest_id AS manifest_id, NULL::text AS container_id,
               x.service_name, x.manifest_date, x.status, x.status_updated_at, x.data AS body
            FROM packages x`;
  return sql`(${select} WHERE ${sql.join(where, sql` AND `)} ORDER BY x.created_at DESC, x.id DESC LIMIT ${limit})`;
}

const BODY_COLUMNS = PACKAGE_EXPORT_COLUMNS.filter((c) => !LEAD.includes(c) || c === 'ContainerID' || c === 'ServiceName' || c === 'ManifestDate');
const CELLS: Record<string, Sql<unknown>> = {
  TrackingNumber: sql`u.tracking_number`,
  status: sql`u.status`,
  status_updated_at: iso(sql`u.status_updated_at`),
  ManifestID: sql`u.manifest_id`,
  manifest_type: sql`CASE WHEN u.kind = 0 THEN 'container' ELSE 'daily' END`,
  ContainerID: sql`CASE WHEN u.kind = 0 THEN u.container_id ELSE r."ContainerID" END`,
  ServiceName: sql`CASE WHEN u.kind = 0 THEN u.service_name ELSE r."ServiceName" END`,
  ManifestDate: sql`CASE WHEN u.kind = 0 THEN ${iso(sql`u.manifest_date`)} ELSE r."ManifestDate" END`,
  created_at: iso(sql`u.created_at`),
};
const LINE = csvLineSql(PACKAGE_EXPORT_COLUMNS.map((c) => CELLS[c] ?? sql.id('r', c)));
const RECORD = sql.join(BODY_COLUMNS.map((c) => sql`${sql.id(c)} text`));

function batchSql(scope: { accountId: string; environment: Environment }, filters: Filters, cursor: Cursor | undefined, limit: number) {
  // The limited union first (its rows only are turned into CSV), then each row's JSON taken apart once.
  return sql<{ rows: number; t: string | null; k: number | null; i: string | null; text: string | null }>`
    SELECT count(*)::int AS rows,
           (array_agg(u.created_at::text ORDER BY u.created_at, u.kind, u.id))[1] AS t,
           (array_agg(u.kind ORDER BY u.created_at, u.kind, u.id))[1] AS k,
           (array_agg(u.id::text ORDER BY u.created_at, u.kind, u.id))[1] AS i,
           string_agg(${LINE}, '' ORDER BY u.created_at DESC, u.kind DESC, u.id DESC) AS text
    FROM (SELECT * FROM (${branch(0, scope, filters, cursor, limit)} UNION ALL ${branch(1, scope, filters, cursor, limit)}) AS v
          ORDER BY v.created_at DESC, v.kind DESC, v.id DESC LIMIT ${limit}) AS u
    CROSS JOIN LATERAL jsonb_to_record(u.body) AS r(${RECORD})`;
}

/**
 * The CSV as a byte stream. The first batch is read before this returns, so a refused filter or a database
 * that is away is an error answer, not a download cut short; a failure later errors the stream (the client
 * sees an incomplete transfer, never a short file that looks whole).
 */
export async function exportPackagesCsv(options: { accountId: string; environment: Environment; filters: Filters; batch?: number }): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const limit = options.batch ?? EXPORT_BATCH;
  const scope = { accountId: options.accountId, environment: options.environment };
  const read = (cursor: Cursor | undefined) => {
    const query = queryRow(pgPool(), batchSql(scope, options.filters, cursor, limit));
    // pull() awaits it; a failure before then must not be an unhandled rejection.
    query.catch(() => undefined);
    return query;
  };
  type Batch = Awaited<ReturnType<typeof read>>;
  const first: Batch = await read(undefined);
  let pending: Promise<Batch> | undefined = Promise.resolve(first);
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (header) {
          header = false;
          controller.enqueue(encoder.encode(`${PACKAGE_EXPORT_COLUMNS.map(csvCell).join(',')}\r\n`));
          return;
        }
        if (!pending) {
          controller.close();
          return;
        }
        const batch = await pending;
        const more = batch && batch.rows === limit && batch.t !== null && batch.k !== null && batch.i !== null;
        // The next batch is asked for before this one is sent: one in flight while the socket takes this one.
        pending = more ? read({ t: batch.t ?? '', k: batch.k ?? 0, i: batch.i ?? '' }) : undefined;
        if (batch?.text) controller.enqueue(encoder.encode(batch.text));
        if (!pending) controller.close();
      },
      cancel() {
        pending = undefined;
      },
    },
    // One batch queued at most: the next is read only when the socket has taken the last.
    { highWaterMark: 1 },
  );
}
