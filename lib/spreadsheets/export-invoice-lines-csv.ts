import 'server-only';
import { queryRowsInIndexOrder } from '@/lib/index-order';
import { ADJUSTMENT_REASON_SQL } from '@/lib/billing/invoices';
import { sql } from '@/lib/sql';
import { batchedCsvStream } from './csv-stream';
import { exportCell } from './csv-fast';

// An invoice's lines as CSV (GET /invoices/{id}/lines), streamed: a keyset range of the (invoice_id, id) index per
// batch, the next batch read while this one is sent, so a million-line invoice costs one batch of memory. The invoice
// is checked to be the caller's before this is called (lib/billing/invoices.ts loadInvoice); its rows never change
// (the ledger's trigger), so the export is the invoice however long it takes.

const BATCH = 5_000;

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
  occurred_at: Date;
  manifest_id: string;
  tracking_number: string | null;
  carrier_barcode: string;
  service: string;
  amount: string;
  currency: string;
  reason: string | null;
}

export function invoiceLinesCsv(invoiceId: string): ReadableStream<Uint8Array> {
  const read = (after: string) =>
    queryRowsInIndexOrder(
      // e.id, not the text id the row carries: an ORDER BY of the output column would sort as text ('10' < '9')
      // and the keyset would skip rows.
      sql<LineRow>`SELECT e.id::text AS id, e.kind, e.occurred_at, e.manifest_id, e.tracking_number, e.carrier_barcode, e.service,
                          e.amount::text AS amount, e.currency,
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
    // Amounts are written as numbers (a spreadsheet sums them); exportCell leaves a signed number unquoted.
    lines: (rows) =>
      rows
        .map(
          (r) =>
            `${r.id},${r.kind},${r.occurred_at.toISOString()},${exportCell(r.manifest_id)},${exportCell(r.tracking_number)},${exportCell(
              r.carrier_barcode,
            )},${exportCell(r.service)},${r.amount},${exportCell(r.currency)},${exportCell(r.reason)}\r\n`,
        )
        .join(''),
  });
}
