import 'server-only';
import { queryRowsInIndexOrder } from '@/lib/index-order';
import { ADJUSTMENT_REASON_SQL } from '@/lib/billing/invoices';
import { sql } from '@/lib/sql';
import { batchedCsvStream } from './csv-stream';
import { exportCell } from './csv-fast';

// An invoice's lines as CSV (GET /invoices/{id}/lines), streamed: a keyset range of the (invoice_id, id) index per
// batch, the next batch read while this one is sent. The invoice is checked to be the caller's before this is called
// (lib/billing/invoices.ts loadInvoice); its rows never change (the ledger's trigger), so the export is the invoice
// however long it takes.

/**
 * Small, as the package export's (export-packages-csv.ts EXPORT_BATCH): 5,000-row batches of row objects, a Date each,
 * outlived the young generation, and the worker's RSS grew with the invoice (+115 MB over a million lines). At 500 a
 * batch dies young and the instant comes as text, so memory stays flat (bench/invoices.ts samples it).
 */
const BATCH = 500;

export const INVOICE_LINE_COLUMNS = [
  'line_id',
  'kind',
  'occurred_at',
  'manifest_id',
  'tracking_number',
  'carrier_barcode',
  'service',
  'amount',
  'currency',
  'reason',
] as const;

interface LineRow {
  id: string;
  kind: string;
  occurred_at: string;
  manifest_id: string;
  tracking_number: string | null;
  carrier_barcode: string;
  service: string;
  amount: string;
  currency: string;
  reason: string | null;
}

function lines(rows: LineRow[]): string {
  let text = '';
  // Amounts are written as numbers (a spreadsheet sums them); exportCell leaves a signed number unquoted.
  for (const r of rows)
    text += `${r.id},${r.kind},${r.occurred_at},${exportCell(r.manifest_id)},${exportCell(r.tracking_number)},${exportCell(
      r.carrier_barcode,
    )},${exportCell(r.service)},${r.amount},${exportCell(r.currency)},${exportCell(r.reason)}\r\n`;
  return text;
}

export function invoiceLinesCsv(invoiceId: string): ReadableStream<Uint8Array> {
  const read = (after: string) =>
    queryRowsInIndexOrder(
      // e.id, not the text id the row carries: an ORDER BY of the output column would sort as text ('10' < '9')
      // and the keyset would skip rows. The instant in toISOString()'s form, written by PostgreSQL (no Date per row).
      sql<LineRow>`SELECT e.id::text AS id, e.kind, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at,
                          e.manifest_id, e.tracking_number, e.carrier_barcode, e.service, e.amount::text AS amount, e.currency,
                          CASE WHEN e.kind = 'adjustment' THEN ${ADJUSTMENT_REASON_SQL} END AS reason
                     FROM billing_entries e WHERE e.invoice_id = ${invoiceId} AND e.id > ${after}::bigint
                    ORDER BY e.invoice_id, e.id LIMIT ${BATCH}`,
    );
  return batchedCsvStream({
    header: INVOICE_LINE_COLUMNS.join(','),
    first: read('0'),
    next: (rows) => {
      const last = rows[rows.length - 1];
      return rows.length === BATCH && last ? read(last.id) : undefined;
    },
    lines,
  });
}
