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

// Every package of a filtered set as CSV, streamed: keyset batches in the read API's own order (GET /packages,
// lib/shipments/read.ts listPackages: newest first, container before daily at the same instant, stable while
// rows are inserted) and the same filters, each batch read only when the reader has taken the previous one
// (one batch in flight while one is sent), so memory stays flat however many rows there are.
//
// One query per batch of its own over the list's own branches (read.ts packageBranch: the same filters, written
// once), not the list API's function: no Date objects, no presented objects kept;
// the cells what the list API presents (presentPackage: timestamps as toISOString() writes them, written by
// PostgreSQL's to_char), built by csv-fast.ts into one string per batch (bench/export.ts: 8-10k rows/s before).

/**
 * Rows per batch: small enough that a batch in flight and one in hand die young (V8 promoted 5,000-row batches, held
 * across awaits, into old space, and the server's RSS grew 23–69 MB during a 100,000-row export; with 500, 0–32 MB),
 * large enough that the per-query cost stays small next to the rows.
 */
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
/** The lifecycle columns, then every field of either package schema once, in schema order, then the charge's. */
export const PACKAGE_EXPORT_COLUMNS: readonly string[] = [
  ...LEAD,
  ...[...new Set([...Object.keys(ZPackage.shape), ...Object.keys(ZContainerDetail.shape)])].filter((c) => !LEAD.includes(c)),
  ...Object.keys(CHARGE_COLUMNS),
];

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds, Z). */
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

/** The rows of these carrier barcodes (one batch's worth), newest first, as batchSql reads them. */
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

/**
 * Each column's value as the list API presents the row (lib/shipments/read.ts presentPackage: the JSON body,
 * then the row's own columns over it), read straight from the row: no presented object per row.
 */
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

/** One CSV line of a row (csv-fast.ts's cells). */
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
 * The CSV as a byte stream. The first batch is read before this returns, so a refused filter or a database
 * that is away is an error answer, not a download cut short; a failure later errors the stream (the client
 * sees an incomplete transfer, never a short file that looks whole).
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

/**
 * The CSV of the packages ticked in the portal (by carrier barcode, at most a batch's worth; another account's or
 * environment's barcode selects nothing), in the same columns as exportPackagesCsv, streamed EXPORT_BATCH at a time.
 */
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
