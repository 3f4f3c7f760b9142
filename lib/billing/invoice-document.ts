import 'server-only';
import type { DocumentInvoice } from '@/lib/documents/render-invoice';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import { invoiceAdjustments, loadInvoice } from './invoices';

/** The PDF lists this many adjustments at most; the CSV has every line. */
const ADJUSTMENTS_LISTED = 2_000;

/** What the invoice PDF shows, read once a render thread is free (lib/api/documents.ts rendered). */
export async function invoiceDocumentData(
  invoice: Awaited<ReturnType<typeof loadInvoice>>,
  accountId: string,
): Promise<DocumentInvoice> {
  const { invoice: i, totals } = invoice;
  const [account, adjustments, count] = await Promise.all([
    queryRow(pgPool(), sql<{ name: string }>`SELECT name FROM accounts WHERE id = ${accountId}::uuid`),
    invoiceAdjustments(i.id, ADJUSTMENTS_LISTED),
    queryRow(
      pgPool(),
      sql<{ n: number }>`SELECT count(*)::int AS n FROM billing_entries WHERE invoice_id = ${i.id} AND kind = 'adjustment'`,
    ),
  ]);
  return {
    number: i.number,
    id: i.id,
    test: i.test,
    accountName: account?.name ?? '',
    periodKind: i.period_kind,
    periodStart: new Date(i.period_start),
    periodEnd: new Date(i.period_end),
    timeZone: i.time_zone,
    currency: i.currency,
    total: i.total,
    lineCount: i.line_count,
    charges: totals.charges,
    adjustments: totals.adjustments,
    voids: totals.voids,
    issuedAt: new Date(i.issued_at),
    byService: totals.by_service,
    byManifest: totals.by_manifest,
    adjustmentLines: adjustments.map((a) => ({
      occurredAt: a.occurred_at,
      reference: a.tracking_number ?? a.carrier_barcode,
      service: a.service,
      amount: a.amount,
      reason: a.reason,
    })),
    adjustmentCount: count?.n ?? adjustments.length,
  };
}
