import 'server-only';
import { pgPool } from '@/lib/db';
import { loadDocumentLabels } from '@/lib/documents/load-documents';
import { renderPool } from '@/lib/documents/render-pool';
import type { AuditOrigin } from '@/lib/audit/record-audit';
import { AppError, validationError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import {
  BATCH_MAX,
  LINK_IDS_MAX,
  unpackIds,
  ZPackageSelection,
  type TBatchCancelResponse,
  type TPackageSelection,
} from '@/lib/schemas/package-selection';
import { PACKAGE_LIST_PARAMETERS } from '@/lib/schemas/lifecycle';
import { parseOperation } from '@/lib/schemas/parse';
import { portalQuery } from './package-list-query';
import { packageBranch, withCustomsFilter, type PackageFilters } from '@/lib/shipments/read';
import { queryRows, queryRow, sql } from '@/lib/sql';
import { cancelPackage } from '@/lib/status/change-status';
import { queryRowsInIndexOrder } from '@/lib/index-order';

// The Packages page's batch operations: a selection (ticked carrier barcodes, or a list filter) resolved to packages
// of the signed-in account in the page's environment only, so a barcode of another account or of the other
// environment selects nothing, whatever the browser sends.

interface Scope {
  accountId: string;
  environment: Environment;
}

interface Selected {
  carrier_barcode: string;
  tracking_number: string | null;
  status: string;
}

/** Counting stops here: past it the page says "more than". */
const COUNT_CAP = 100_000;

/** How many packages the list's filters match (up to COUNT_CAP), over the list's own filters (packageBranch). */
export async function countPackages(options: Scope & { filters: PackageFilters }) {
  const limit = COUNT_CAP + 1;
  const filters = await withCustomsFilter(options, options.filters);
  const row = await queryRow(
    pgPool(),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM (${packageBranch(0, options, filters, undefined, limit)}
                       UNION ALL ${packageBranch(1, options, filters, undefined, limit)}) AS u`,
  );
  const n = row?.n ?? 0;
  return { count: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}

/** The selected packages of this account and environment, newest first for a filter; at most BATCH_MAX. */
async function resolve(scope: Scope, selection: TPackageSelection): Promise<Selected[]> {
  if (selection.carrierBarcodes) {
    const inScope = sql`x.account_id = ${scope.accountId}::uuid AND x.environment = ${scope.environment}::"Environment"
                        AND x.carrier_barcode = ANY(${selection.carrierBarcodes}::text[])`;
    return queryRows(
      pgPool(),
      sql<Selected>`SELECT x.carrier_barcode, x.tracking_number, x.status FROM container_packages x WHERE ${inScope}
                    UNION ALL SELECT x.carrier_barcode, x.tracking_number, x.status FROM packages x WHERE ${inScope}`,
    );
  }
  const filters = await withCustomsFilter(scope, selection.filters ?? {});
  const limit = BATCH_MAX + 1;
  const rows = await queryRowsInIndexOrder(
    sql<Selected & { created_at: Date; kind: number; id: string }>`
      SELECT u.carrier_barcode, u.tracking_number, u.status
      FROM (${packageBranch(0, scope, filters, undefined, limit)} UNION ALL ${packageBranch(1, scope, filters, undefined, limit)}) AS u
      ORDER BY u.created_at DESC, u.kind DESC, u.id::bigint DESC LIMIT ${limit}`,
  );
  if (rows.length > BATCH_MAX)
    throw validationError([
      { path: 'filter', message: `selects more than ${BATCH_MAX.toLocaleString('en-US')} packages: narrow the filter` },
    ]);
  return rows;
}

/** The carrier barcodes a selection stands for (for the CSV of a filter, the filter itself is streamed instead). */
export async function selectedBarcodes(scope: Scope, selection: TPackageSelection): Promise<string[]> {
  const rows = await resolve(scope, selection);
  if (selection.carrierBarcodes) {
    // In the order ticked (the page's order), not the query's.
    const found = new Set(rows.map((r) => r.carrier_barcode));
    return selection.carrierBarcodes.filter((b) => found.has(b));
  }
  return rows.map((r) => r.carrier_barcode);
}

/** Parallel cancels: each is its own transaction (cancelPackage), so a few at once keep a large batch short. */
const CANCEL_CONCURRENCY = 4;

/**
 * Cancels every selected package through the domain's own cancel (its rules, events and audit unchanged), and says
 * which could not be and why. A barcode that selects nothing here is reported as not found, as another's package
 * would be by the single cancel.
 */
export async function cancelSelection(
  options: Scope & { selection: TPackageSelection; origin: AuditOrigin },
): Promise<TBatchCancelResponse> {
  const scope = { accountId: options.accountId, environment: options.environment };
  const rows = await resolve(scope, options.selection);
  const result: TBatchCancelResponse = { requested: 0, cancelled: 0, already_cancelled: 0, not_cancelled: [] };
  const ticked = options.selection.carrierBarcodes;
  if (ticked) {
    const found = new Set(rows.map((r) => r.carrier_barcode));
    for (const barcode of ticked)
      if (!found.has(barcode))
        result.not_cancelled.push({
          carrier_barcode: barcode,
          TrackingNumber: null,
          code: 'not_found',
          message: 'No package with this carrier barcode in this account and environment.',
        });
  }
  result.requested = rows.length + result.not_cancelled.length;
  let next = 0;
  const work = async () => {
    for (let row = rows[next++]; row; row = rows[next++]) {
      if (row.status === 'cancelled') {
        result.already_cancelled += 1;
        continue;
      }
      try {
        await cancelPackage({ ...scope, trackingNumber: row.carrier_barcode, origin: options.origin });
        result.cancelled += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        result.not_cancelled.push({
          carrier_barcode: row.carrier_barcode,
          TrackingNumber: row.tracking_number,
          code: error.code,
          message: error.message,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: CANCEL_CONCURRENCY }, work));
  return result;
}

/**
 * The labels of the selection as one document, rendered under the account's and the process's render limits. The
 * selection is read and the render admitted (404, 429, 503) before the answer starts; the bytes follow as a stream,
 * so the browser's download begins at once while the render thread draws (1,000 PDF labels take about a second).
 */
export async function selectionLabels(
  options: Scope & { selection: TPackageSelection; format: 'pdf' | 'zpl' },
): Promise<ReadableStream<Uint8Array>> {
  const scope = { accountId: options.accountId, environment: options.environment };
  const carrierBarcodes = await selectedBarcodes(scope, options.selection);
  if (carrierBarcodes.length === 0)
    throw new AppError('not_found', 'None of the selected packages is in this account and environment.');
  const ticket = renderPool().admit(options.accountId);
  const bytes = ticket
    .render(async () => ({
      document: 'package-labels',
      labels: await loadDocumentLabels({ ...scope, carrierBarcodes }),
      title: `Labels of ${carrierBarcodes.length} packages`,
      format: options.format,
    }))
    .finally(() => ticket.release());
  // Awaited by pull(); a render that fails before then must not be an unhandled rejection.
  bytes.catch(() => undefined);
  // Every document of the format starts with these bytes (a PDF's header, a ZPL label's start): sent at once, they
  // make the server send the answer's head, so the browser shows the download while the rest is drawn.
  const lead = LEADS[options.format];
  let sent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(lead.slice());
        return;
      }
      const all = await bytes;
      if (!lead.every((byte, i) => all[i] === byte)) throw new Error(`a ${options.format} document that does not start as one`);
      controller.enqueue(all.subarray(lead.length));
      controller.close();
    },
  });
}

const LEADS = { pdf: new TextEncoder().encode('%PDF-'), zpl: new TextEncoder().encode('^XA') } as const;

/** A selection sent in a download link: packed `ids` (packIds), or the list's filters. */
export function linkSelection(url: string): TPackageSelection {
  const { ids, format: _format, ...filter } = portalQuery(url, [...PACKAGE_LIST_PARAMETERS, 'ids', 'format']);
  if (ids === undefined) return parseOperation(ZPackageSelection, { filter });
  const carrierBarcodes = unpackIds(ids);
  if (!carrierBarcodes || Object.keys(filter).length > 0)
    throw validationError([
      { path: 'ids', message: `must be up to ${LINK_IDS_MAX.toLocaleString('en-US')} packed carrier barcodes, without filters` },
    ]);
  return parseOperation(ZPackageSelection, { carrier_barcodes: carrierBarcodes });
}
