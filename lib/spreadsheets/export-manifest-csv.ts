import 'server-only';
import { db } from '@/lib/db';
import { queryRowsInIndexOrder } from '@/lib/index-order';
import { sql } from '@/lib/sql';
import { csvCell } from './csv';
import { exportCell, exportLine } from './csv-fast';
import { packageColumns } from './package-columns';
import type { TCharge } from '@/lib/schemas/rate';
import type { PortalScope } from './scope';

const CHARGE_HEADER = ['charge_status', 'charge_amount', 'charge_currency'];

function chargeCells(charge: TCharge | null): string {
  return charge ? [charge.status, charge.amount, charge.currency].map(exportCell).join(',') : ',,';
}

/** Rows per query: one keyset range scan each, so that memory holds one batch, never the manifest. */
const BATCH = 1_000;

/**
 * A manifest's packages as CSV (formula-looking cells neutralised); null when not this account's. Streamed one keyset
 * batch at a time, the next read while one is sent, so a 100,000-row manifest costs one batch of memory
 * (docs/decisions/reads-at-scale.md). Rows come as stored JSON, parsed once by pg, cells written by csv-fast.ts.
 */
export async function exportManifestCsv(
  options: PortalScope & { id: string },
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> } | null> {
  const { accountId, environment, id } = options;
  const filename = `${id}-packages.csv`;
  const container = await db.containerManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  const daily = container
    ? null
    : await db.dailyManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  if (!container && !daily) return null;
  const columns = packageColumns(container ? 'container' : 'daily');
  const batch = (after: string) =>
    container
      ? sql<{
          key: string;
          house_waybill: string;
          charge: TCharge | null;
          body: Record<string, unknown>;
        }>`SELECT x.position::text AS key, x.house_waybill, x.charge, x.detail AS body FROM container_packages x
            WHERE x.manifest_id = ${id} AND x.account_id = ${accountId}::uuid AND x.environment = ${environment}::"Environment"
              AND x.position > ${after}::bigint
            ORDER BY x.position LIMIT ${BATCH}`
      : sql<{
          key: string;
          house_waybill: string;
          charge: TCharge | null;
          body: Record<string, unknown>;
        }>`SELECT x.id::text AS key, x.house_waybill, x.charge, x.data AS body FROM packages x
            WHERE x.daily_manifest_id = ${id} AND x.account_id = ${accountId}::uuid AND x.environment = ${environment}::"Environment"
              AND x.id > ${after}::bigint
            ORDER BY x.id LIMIT ${BATCH}`;
  const read = (after: string) => {
    // In manifest order, from the (manifest, key) index, whatever the planner guesses of the manifest's size.
    const query = queryRowsInIndexOrder(batch(after));
    // A batch that fails before pull() awaits it must not be an unhandled rejection; pull() still sees the error.
    query.catch(() => undefined);
    return query;
  };
  const encoder = new TextEncoder();
  // The next batch is asked for while this one is sent: one batch in flight, one in hand.
  let pending: ReturnType<typeof read> | undefined = read('-1');
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // The schema's fields, then the house waybill (which the stored body need not hold), then the charge.
        controller.enqueue(encoder.encode(`${[...columns, 'house_waybill', ...CHARGE_HEADER].map(csvCell).join(',')}\r\n`));
      },
      async pull(controller) {
        if (!pending) return;
        const rows = await pending;
        const last = rows[rows.length - 1];
        pending = rows.length === BATCH && last ? read(last.key) : undefined;
        let chunk = '';
        for (const row of rows)
          chunk += `${exportLine(columns, row.body).slice(0, -2)},${exportCell(row.house_waybill)},${chargeCells(row.charge)}\r\n`;
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (!pending) controller.close();
      },
      cancel() {
        // The client went away: the batch in flight is let go (its rows are dropped).
        pending = undefined;
      },
    },
    { highWaterMark: 1 },
  );
  return { filename, stream };
}
