import 'server-only';
import { queryRowsInIndexOrder } from '@/lib/index-order';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { Cursor } from '@/lib/pagination/keyset';
import { packageBranch, withCustomsFilter, type PackageFilters as Filters } from '@/lib/shipments/read';
import { csvCell } from '@/lib/spreadsheets/csv';
import { exportCell } from '@/lib/spreadsheets/csv-fast';
import { batchedCsvStream } from '@/lib/spreadsheets/csv-stream';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';
import type { TCharge } from '@/lib/schemas/rate';
import { pgPool } from '@/lib/db';
import { queryRows, sql, type Sql } from '@/lib/sql';

// Every package of a filtered set as CSV, streamed in keyset batches in the list API's order and with its filters
// (read.ts packageBranch, written once), one batch in flight while one is sent, so memory stays flat. Cells are
// written by PostgreSQL's to_char and csv-fast.ts: no Date or presented object per row.

/** Small enough that batches in flight die young (5,000-row batches reached old space and grew RSS), large enough per query. */
export const EXPORT_BATCH = 500;

const LEAD = [
  'TrackingNumber',
  'carrier_barcode',
  'house_waybill',
  'status',
  'status_updated_at',
  'ManifestID',
  'manifest_type',
  'ContainerID',
  'ServiceName',
  'ManifestDate',
  'created_at',
];
/** What the package costs (its `charge`, lib/billing/pricing.ts), last so that every earlier column keeps its place. */
export const CHARGE_COLUMNS: Record<string, (charge: TCharge) => unknown> = {
  charge_status: (c) => c.status,
  charge_amount: (c) => c.amount,
  charge_currency: (c) => c.currency,
  charge_card_version: (c) => c.card_version,
  charge_zone: (c) => c.zone,
  charge_billable_weight: (c) => c.billable_weight,
  charge_quote_id: (c) => c.quote_id,
  charge_reason: (c) => c.reason,
};
export const PACKAGE_EXPORT_COLUMNS: readonly string[] = [
  ...LEAD,
  ...[...new Set([...Object.keys(ZPackage.shape), ...Object.keys(ZContainerDetail.shape)])].filter((c) => !LEAD.includes(c)),
  ...Object.keys(CHARGE_COLUMNS),
];

const iso = (value: Sql<unknown>) => sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface BatchRow {
  kind: number;
  id: string;
  t: string;
  tracking_number: string;
  carrier_barcode: string;
  house_waybill: string;
  manifest_id: string;
  container_id: string | null;
  service_name: string | null;
  manifest_date: string | null;
  status: string;
  status_updated_at: string;
  created_at: string;
  charge: TCharge | null;
  body: Record<string, unknown>;
}

function batchSql(
  scope: { accountId: string; environment: Environment },
  filters: Filters,
  cursor: Cursor | undefined,
  limit: number,
): Sql<BatchRow> {
  // Timestamps as text in toISOString()'s form (no Date per cell), the cursor's as PostgreSQL's own text (exact).
  return sql<BatchRow>`
    SELECT u.kind, u.id, u.created_at::text AS t, u.tracking_number, u.carrier_barcode, u.house_waybill, u.manifest_id, u.container_id, u.service_name,
           ${iso(sql`u.manifest_date`)} AS manifest_date, u.status, ${iso(sql`u.status_updated_at`)} AS status_updated_at,
           ${iso(sql`u.created_at`)} AS created_at, u.charge, u.body
    FROM (${packageBranch(0, scope, filters, cursor, limit)} UNION ALL ${packageBranch(1, scope, filters, cursor, limit)}) AS u
    ORDER BY u.created_at DESC, u.kind DESC, u.id::bigint DESC LIMIT ${limit}`;
}

function selectedSql(scope: { accountId: string; environment: Environment }, carrierBarcodes: readonly string[]): Sql<BatchRow> {
  const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"
                      AND x.carrier_barcode = ANY(${[...carrierBarcodes]}::text[])`;
  return sql<BatchRow>`
    SELECT u.kind, u.id, u.created_at::text AS t, u.tracking_number, u.carrier_barcode, u.house_waybill, u.manifest_id, u.container_id, u.service_name,
           ${iso(sql`u.manifest_date`)} AS manifest_date, u.status, ${iso(sql`u.status_updated_at`)} AS status_updated_at,
           ${iso(sql`u.created_at`)} AS created_at, u.charge, u.body
    FROM (SELECT 0 AS kind, x.id::text AS id, x.created_at, x.tracking_number, x.carrier_barcode, x.house_waybill, x.manifest_id, m.container_id,
                 x.service_name, x.manifest_date, x.status, x.status_updated_at, x.charge, x.detail AS body
          FROM container_packages x JOIN container_manifests m ON m.id = x.manifest_id WHERE ${inScope}
          UNION ALL
          SELECT 1, x.id::text, x.created_at, x.tracking_number, x.carrier_barcode, x.house_waybill, x.daily_manifest_id, NULL,
                 x.service_name, x.manifest_date, x.status, x.status_updated_at, x.charge, x.data
          FROM packages x WHERE ${inScope}) AS u
    ORDER BY u.created_at DESC, u.kind DESC, u.id::bigint DESC`;
}

/** Each column's value as the list API presents the row (read.ts presentPackage), read straight from the row. */
const OWN: Record<string, (row: BatchRow) => unknown> = {
  TrackingNumber: (row) => row.tracking_number,
  carrier_barcode: (row) => row.carrier_barcode,
  house_waybill: (row) => row.house_waybill,
  ManifestID: (row) => row.manifest_id,
  ContainerID: (row) => (row.kind === 0 ? row.container_id : row.body.ContainerID),
  ServiceName: (row) => (row.kind === 0 ? row.service_name : row.body.ServiceName),
  ManifestDate: (row) => (row.kind === 0 ? row.manifest_date : row.body.ManifestDate),
  manifest_type: (row) => (row.kind === 0 ? 'container' : 'daily'),
  status: (row) => row.status,
  status_updated_at: (row) => row.status_updated_at,
  created_at: (row) => row.created_at,
  ...Object.fromEntries(
    Object.entries(CHARGE_COLUMNS).map(([column, pick]) => [column, (row: BatchRow) => (row.charge ? pick(row.charge) : null)]),
  ),
};
const VALUES: readonly ((row: BatchRow) => unknown)[] = PACKAGE_EXPORT_COLUMNS.map(
  (column) => OWN[column] ?? ((row: BatchRow) => row.body[column]),
);

const HEADER = PACKAGE_EXPORT_COLUMNS.map(csvCell).join(',');

function line(row: BatchRow): string {
  let text = '';
  for (let i = 0; i < VALUES.length; i++) {
    const value = VALUES[i];
    if (i > 0) text += ',';
    if (value) text += exportCell(value(row));
  }
  return `${text}\r\n`;
}

/**
 * The first batch is read before this returns, so a refused filter or an absent database is an error answer; a later
 * failure errors the stream (an incomplete transfer, never a short file that looks whole).
 */
export async function exportPackagesCsv(options: {
  accountId: string;
  environment: Environment;
  filters: Filters;
  batch?: number;
}): Promise<ReadableStream<Uint8Array>> {
  const limit = options.batch ?? EXPORT_BATCH;
  const scope = { accountId: options.accountId, environment: options.environment };
  // Newest first along the filter's index, whatever the planner guesses of the set's size (lib/index-order.ts).
  const filters = await withCustomsFilter(scope, options.filters);
  const read = (cursor: Cursor | undefined) => queryRowsInIndexOrder(batchSql(scope, filters, cursor, limit));
  const first = read(undefined);
  await first;
  return batchedCsvStream({
    header: HEADER,
    first,
    next: (rows) => {
      const last = rows[rows.length - 1];
      return rows.length === limit && last ? read({ t: last.t, k: last.kind, i: last.id }) : undefined;
    },
    lines: (rows) => rows.map(line).join(''),
  });
}

/** The packages ticked in the portal, by carrier barcode (another account's selects nothing), as exportPackagesCsv. */
export async function exportSelectedPackagesCsv(options: {
  accountId: string;
  environment: Environment;
  carrierBarcodes: readonly string[];
}): Promise<ReadableStream<Uint8Array>> {
  const scope = { accountId: options.accountId, environment: options.environment };
  const chunks: string[][] = [];
  for (let i = 0; i < options.carrierBarcodes.length; i += EXPORT_BATCH)
    chunks.push(options.carrierBarcodes.slice(i, i + EXPORT_BATCH));
  let next = 0;
  const read = (i: number) => {
    const chunk = chunks[i];
    return chunk ? queryRows(pgPool(), selectedSql(scope, chunk)) : undefined;
  };
  // The first batch before answering, as exportPackagesCsv: a database away is an error answer, not a short file.
  const first = read(0) ?? Promise.resolve([]);
  await first;
  return batchedCsvStream({ header: HEADER, first, next: () => read(++next), lines: (rows) => rows.map(line).join('') });
}
