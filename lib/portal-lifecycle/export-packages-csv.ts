import 'server-only';
import type { Environment } from '@/lib/generated/prisma/enums';
import { listPackages, type PackageListQuery } from '@/lib/lifecycle/read';
import { csvCell } from '@/lib/portal-queries/csv';
import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';

// Every package of a filtered set as CSV, streamed: the rows are read in keyset batches through the read
// API's own list (lib/lifecycle/read.ts listPackages, newest first, stable while rows are inserted), and
// each batch is written only when the reader pulls, so memory stays flat however many rows there are.

/** Rows per batch: large enough that the per-query cost is small next to the rows, small enough to hold. */
export const EXPORT_BATCH = 2_000;

const LEAD = ['TrackingNumber', 'status', 'status_updated_at', 'ManifestID', 'manifest_type', 'ContainerID', 'ServiceName', 'ManifestDate', 'created_at'];
/** The lifecycle columns, then every field of either package schema once, in schema order. */
export const PACKAGE_EXPORT_COLUMNS: readonly string[] = [
  ...LEAD,
  ...[...new Set([...Object.keys(ZPackage.shape), ...Object.keys(ZContainerDetail.shape)])].filter((c) => !LEAD.includes(c)),
];

type Filters = Omit<PackageListQuery, 'limit' | 'cursor'>;

function line(row: Record<string, unknown>): string {
  return `${PACKAGE_EXPORT_COLUMNS.map((c) => csvCell(cellValue(row[c]))).join(',')}\r\n`;
}

function cellValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

/**
 * The CSV as a byte stream. The first batch is read before this returns, so a refused filter or a database
 * that is away is an error answer, not a download cut short; a failure later errors the stream (the client
 * sees an incomplete transfer, never a short file that looks whole).
 */
export async function exportPackagesCsv(options: { accountId: string; environment: Environment; filters: Filters; batch?: number }): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const limit = options.batch ?? EXPORT_BATCH;
  const read = (cursor: string | undefined) =>
    listPackages({ accountId: options.accountId, environment: options.environment, query: { ...options.filters, limit, cursor } });
  let next: Awaited<ReturnType<typeof read>> | null = await read(undefined);
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (header) {
          header = false;
          controller.enqueue(encoder.encode(`${PACKAGE_EXPORT_COLUMNS.map(csvCell).join(',')}\r\n`));
          return;
        }
        const page = next;
        if (!page) {
          controller.close();
          return;
        }
        let text = '';
        for (const row of page.data) text += line(row);
        controller.enqueue(encoder.encode(text));
        next = page.has_more && page.next_cursor ? await read(page.next_cursor) : null;
      },
      cancel() {
        next = null;
      },
    },
    // One batch queued at most: the next is read only when the socket has taken the last.
    { highWaterMark: 1 },
  );
}
