import 'server-only';
import { randomBytes } from 'node:crypto';
import { pgPool, pgTransaction } from '@/lib/db';
import { AppError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { createdAtPosition, decodeCursor, newestFirstPage } from '@/lib/pagination/keyset';
import type { TInvoice, TInvoiceList, TListInvoicesQuery, TOpenBillingPeriod } from '@/lib/schemas/invoices';
import { queryRow, queryRows, sql, type Queryable } from '@/lib/sql';
import { enqueueEvent } from '@/lib/webhooks/enqueue-event';
import { getBillingSettings } from './billing-settings';
import { nextInvoicePeriod, type BillingPeriodKind } from './periods';

// Invoices (docs/decisions/invoices.md). One account and environment's invoice is issued in ONE transaction under its
// lock, entries marked and summed in one set-based UPDATE; a second issuer waits, then finds the period billed, and the
// unique (account, environment, period_start) key refuses it even without the lock. No entries: no invoice, no number.

/** After a period's end, how long before its invoice is issued: acceptances in flight at the end commit meanwhile. */
export const INVOICE_GRACE_MS = 5 * 60_000;

interface Scope {
  accountId: string;
  environment: Environment;
}

export type InvoicePeriodKind = BillingPeriodKind | 'on_demand';

interface InvoiceRow {
  id: string;
  environment: Environment;
  number: number;
  period_kind: string;
  period_start: Date;
  period_end: Date;
  time_zone: string;
  currency: string;
  total: string;
  line_count: number;
  totals: StoredTotals;
  issued_at: Date;
}

interface StoredTotals {
  charges: string;
  adjustments: string;
  voids: string;
  by_service: { service: string; lines: number; amount: string }[];
  by_manifest: { manifest_id: string; lines: number; amount: string }[];
}

/** An adjustment's reason as a person reads it ("Measured weight 12 lb (billable 8 → 12 lb)"); other words as they are. */
export const ADJUSTMENT_REASON_SQL = sql<never>`concat_ws(' ',
    CASE detail->>'reason' WHEN 'weight' THEN 'Measured weight' WHEN 'dimensions' THEN 'Measured size' ELSE detail->>'reason' END,
    CASE WHEN detail->>'reason' IN ('weight', 'dimensions') AND detail->'measured'->>'weight' IS NOT NULL
         THEN concat(detail->'measured'->>'weight', ' ', COALESCE(detail->'measured'->>'weight_unit', 'lb')) END,
    CASE WHEN detail->>'reason' IN ('weight', 'dimensions') AND detail->'measured'->>'length' IS NOT NULL
         THEN concat(detail->'measured'->>'length', ' × ', detail->'measured'->>'width', ' × ', detail->'measured'->>'height', ' in') END,
    CASE WHEN detail->'billable_weight'->>'after' IS NOT NULL
         THEN concat('(billable ', COALESCE(detail->'billable_weight'->>'before', '?'), ' → ', detail->'billable_weight'->>'after', ' lb)') END)`;

const INVOICE_COLUMNS = sql<never>`id, environment, number, period_kind, period_start, period_end, time_zone, currency,
  total::text AS total, line_count, totals, issued_at`;

export function newInvoiceId(): string {
  return `inv_${randomBytes(12).toString('hex')}`;
}

function presentInvoice(row: InvoiceRow): TInvoice {
  const kind = row.period_kind === 'week' || row.period_kind === 'on_demand' ? row.period_kind : 'month';
  return {
    id: row.id,
    object: 'invoice',
    number: row.number,
    test: row.environment === 'test',
    period_kind: kind,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    time_zone: row.time_zone,
    currency: row.currency,
    total: row.total,
    line_count: row.line_count,
    totals: {
      charges: row.totals.charges,
      adjustments: row.totals.adjustments,
      voids: row.totals.voids,
      by_service: row.totals.by_service,
    },
    manifest_count: row.totals.by_manifest.length,
    issued_at: row.issued_at.toISOString(),
    lines_path: `/invoices/${row.id}/lines`,
    document_path: `/invoices/${row.id}/document`,
  };
}

const lockKey = (scope: Scope) => `invoice:${scope.accountId}:${scope.environment}`;

interface OpenState {
  lastEnd: Date | null;
  oldestOpen: Date | null;
}

async function openState(on: Queryable, scope: Scope): Promise<OpenState> {
  const row = await queryRow(
    on,
    sql<{ last_end: Date | null; oldest_open: Date | null }>`
      SELECT (SELECT max(period_end) FROM invoices
               WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment") AS last_end,
             (SELECT min(occurred_at) FROM billing_entries
               WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
                 AND invoice_id IS NULL AND voided_at IS NULL) AS oldest_open`,
  );
  return { lastEnd: row?.last_end ?? null, oldestOpen: row?.oldest_open ?? null };
}

/** Thrown inside the transaction to roll back a period that had nothing to bill (its number is not used). */
class NothingToBill extends Error {}

/** Bills [start, end) under the lock already held; null (rolled back) when no entry is billed. */
async function bill(
  client: Queryable,
  scope: Scope,
  period: { kind: InvoicePeriodKind; start: Date; end: Date; timeZone: string },
): Promise<InvoiceRow> {
  const id = newInvoiceId();
  const counter = await queryRow(
    client,
    sql<{ last_number: number }>`
      INSERT INTO invoice_counters (account_id, environment, last_number)
      VALUES (${scope.accountId}::uuid, ${scope.environment}::"Environment", 1)
      ON CONFLICT (account_id, environment) DO UPDATE SET last_number = invoice_counters.last_number + 1
      RETURNING last_number`,
  );
  const number = counter?.last_number ?? 1;
  // One statement: the entries are marked and summed as they are marked (the CTE's rows are read once, in memory).
  const summed = await queryRow(
    client,
    sql<{ line_count: number; total: string; currency: string | null; totals: StoredTotals }>`
      WITH billed AS (
        UPDATE billing_entries SET invoice_id = ${id}
         WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
           AND invoice_id IS NULL AND voided_at IS NULL AND occurred_at < ${period.end}
        RETURNING kind, service, manifest_id, amount, currency
      ), by_service AS (
        SELECT service, count(*)::int AS lines, sum(amount) AS amount FROM billed GROUP BY service
      ), by_manifest AS (
        SELECT manifest_id, count(*)::int AS lines, sum(amount) AS amount FROM billed GROUP BY manifest_id
      )
      SELECT count(*)::int AS line_count, COALESCE(sum(amount), 0)::numeric(16,2)::text AS total, max(currency) AS currency,
             jsonb_build_object(
               'charges', COALESCE(sum(amount) FILTER (WHERE kind = 'charge'), 0)::numeric(16,2)::text,
               'adjustments', COALESCE(sum(amount) FILTER (WHERE kind = 'adjustment'), 0)::numeric(16,2)::text,
               'voids', (-COALESCE(sum(amount) FILTER (WHERE kind = 'void'), 0))::numeric(16,2)::text,
               'by_service', (SELECT COALESCE(jsonb_agg(jsonb_build_object('service', service, 'lines', lines,
                                'amount', amount::numeric(16,2)::text) ORDER BY service), '[]') FROM by_service),
               'by_manifest', (SELECT COALESCE(jsonb_agg(jsonb_build_object('manifest_id', manifest_id, 'lines', lines,
                                'amount', amount::numeric(16,2)::text) ORDER BY manifest_id), '[]') FROM by_manifest)
             ) AS totals
        FROM billed`,
  );
  if (!summed || summed.line_count === 0) throw new NothingToBill();
  const row = await queryRow(
    client,
    sql<InvoiceRow>`
      INSERT INTO invoices (id, account_id, environment, number, period_kind, period_start, period_end, time_zone, currency,
                            total, line_count, totals)
      VALUES (${id}, ${scope.accountId}::uuid, ${scope.environment}::"Environment", ${number}, ${period.kind}, ${period.start},
              ${period.end}, ${period.timeZone}, ${summed.currency ?? 'USD'}, ${summed.total}::numeric, ${summed.line_count},
              ${JSON.stringify(summed.totals)}::jsonb)
      RETURNING ${INVOICE_COLUMNS}`,
  );
  if (!row) throw new Error('the invoice insert returned no row');
  await enqueueEvent(client, {
    accountId: scope.accountId,
    environment: scope.environment,
    eventType: 'invoice.created',
    payload: { type: 'invoice.created', invoice: presentInvoice(row) },
  });
  return row;
}

async function underInvoiceLock(scope: Scope, work: (client: Queryable) => Promise<InvoiceRow | null>): Promise<TInvoice | null> {
  try {
    const row = await pgTransaction(async (client) => {
      await queryRow(client, sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(scope)}, 0))`);
      return work(client);
    });
    return row ? presentInvoice(row) : null;
  } catch (error) {
    if (error instanceof NothingToBill) return null;
    // The period key: another issuer without the lock (a second process of an older version) got there first.
    if ((error as { code?: unknown } | null)?.code === '23505') return null;
    throw error;
  }
}

/** Null when not due, nothing to bill, or another issuer got there first. */
export async function issueDueInvoice(scope: Scope & { now: Date; graceMs?: number }): Promise<TInvoice | null> {
  const grace = scope.graceMs ?? INVOICE_GRACE_MS;
  return underInvoiceLock(scope, async (client) => {
    const state = await openState(client, scope);
    if (!state.oldestOpen) return null;
    const settings = await getBillingSettings(scope, client);
    const period = nextInvoicePeriod({
      oldestOpen: state.oldestOpen,
      lastEnd: state.lastEnd,
      kind: settings.period,
      timeZone: settings.time_zone,
    });
    if (period.end.getTime() + grace > scope.now.getTime()) return null;
    return bill(client, scope, { kind: settings.period, ...period, timeZone: settings.time_zone });
  });
}

/**
 * The test path's close: everything open from the last invoice's end to now as one `on_demand` invoice; the next
 * periodic invoice starts where it ended. Refuses live as well.
 */
export async function closeOpenPeriodNow(scope: Scope & { now: Date }): Promise<TInvoice | null> {
  if (scope.environment !== 'test') throw new AppError('not_found', 'Invoices are closed early in the test environment only.');
  return underInvoiceLock(scope, async (client) => {
    const state = await openState(client, scope);
    if (!state.oldestOpen || state.oldestOpen >= scope.now) return null;
    const settings = await getBillingSettings(scope, client);
    const natural = nextInvoicePeriod({
      oldestOpen: state.oldestOpen,
      lastEnd: state.lastEnd,
      kind: settings.period,
      timeZone: settings.time_zone,
    });
    if (state.lastEnd && state.lastEnd >= scope.now) return null;
    return bill(client, scope, { kind: 'on_demand', start: natural.start, end: scope.now, timeZone: settings.time_zone });
  });
}

/**
 * Candidates are found by one skip scan of the open entries' index (one probe per account and environment), each then
 * issued under its own lock. `limit` bounds one run; the periodic job runs again at once when it was reached.
 */
export async function issueDueInvoices(options: { now: Date; graceMs?: number; limit?: number }): Promise<number> {
  const grace = options.graceMs ?? INVOICE_GRACE_MS;
  const limit = options.limit ?? 100;
  const candidates = await queryRows(
    pgPool(),
    sql<{
      account_id: string;
      environment: Environment;
      oldest_open: Date;
      last_end: Date | null;
      period: string | null;
      time_zone: string | null;
    }>`
      WITH RECURSIVE pairs AS (
        (SELECT account_id, environment FROM billing_entries WHERE invoice_id IS NULL AND voided_at IS NULL
          ORDER BY account_id, environment LIMIT 1)
        UNION ALL
        SELECT next.account_id, next.environment FROM pairs p, LATERAL (
          SELECT account_id, environment FROM billing_entries
           WHERE invoice_id IS NULL AND voided_at IS NULL AND (account_id, environment) > (p.account_id, p.environment)
           ORDER BY account_id, environment LIMIT 1) next
      )
      SELECT p.account_id::text AS account_id, p.environment,
             (SELECT min(occurred_at) FROM billing_entries e WHERE e.account_id = p.account_id AND e.environment = p.environment
                 AND e.invoice_id IS NULL AND e.voided_at IS NULL) AS oldest_open,
             (SELECT max(period_end) FROM invoices i WHERE i.account_id = p.account_id AND i.environment = p.environment) AS last_end,
             (SELECT period FROM billing_settings s WHERE s.account_id = p.account_id) AS period,
             (SELECT time_zone FROM close_out_settings c WHERE c.account_id = p.account_id AND c.environment = p.environment) AS time_zone
        FROM pairs p`,
  );
  let issued = 0;
  for (const c of candidates) {
    const period = nextInvoicePeriod({
      oldestOpen: c.oldest_open,
      lastEnd: c.last_end,
      kind: c.period === 'week' ? 'week' : 'month',
      timeZone: c.time_zone ?? 'UTC',
    });
    if (period.end.getTime() + grace > options.now.getTime()) continue;
    // Every period of theirs that is due (a server down over a month's end catches up at once), one invoice each.
    while (issued < limit) {
      const invoice = await issueDueInvoice({
        accountId: c.account_id,
        environment: c.environment,
        now: options.now,
        graceMs: grace,
      });
      if (!invoice) break;
      issued += 1;
    }
    if (issued >= limit) break;
  }
  return issued;
}

export async function listInvoices(scope: Scope & { query: TListInvoicesQuery }): Promise<TInvoiceList> {
  const { query } = scope;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'text');
  const rows = await queryRows(
    pgPool(),
    sql<InvoiceRow & { created_at: Date }>`
      SELECT ${INVOICE_COLUMNS}, issued_at AS created_at FROM invoices
       WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
         ${cursor ? sql`AND (issued_at, id) < (${cursor.t}::timestamptz, ${cursor.i})` : sql.empty}
       ORDER BY issued_at DESC, id DESC LIMIT ${query.limit + 1}`,
  );
  return newestFirstPage(rows, query.limit, presentInvoice, createdAtPosition);
}

const INVOICE_ID = /^inv_[0-9a-f]{24}$/;

export function notFoundInvoice(id: string): AppError {
  return new AppError('not_found', `No invoice ${id.slice(0, 80)} in this account and environment.`);
}

/** The stored row with its by-manifest totals (the PDF's), or 404 for another account's, the other environment's or no id of ours. */
export async function loadInvoice(scope: Scope & { id: string }): Promise<{ invoice: TInvoice; totals: StoredTotals }> {
  if (!INVOICE_ID.test(scope.id)) throw notFoundInvoice(scope.id);
  const row = await queryRow(
    pgPool(),
    sql<InvoiceRow>`SELECT ${INVOICE_COLUMNS} FROM invoices
      WHERE id = ${scope.id} AND account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"`,
  );
  if (!row) throw notFoundInvoice(scope.id);
  return { invoice: presentInvoice(row), totals: row.totals };
}

export async function getInvoice(scope: Scope & { id: string }): Promise<TInvoice> {
  return (await loadInvoice(scope)).invoice;
}

/** An invoice's adjustments with their reasons (the PDF lists them). */
export async function invoiceAdjustments(
  invoiceId: string,
  limit: number,
): Promise<
  {
    occurred_at: Date;
    tracking_number: string | null;
    carrier_barcode: string;
    service: string;
    amount: string;
    reason: string;
  }[]
> {
  return queryRows(
    pgPool(),
    sql<{
      occurred_at: Date;
      tracking_number: string | null;
      carrier_barcode: string;
      service: string;
      amount: string;
      reason: string;
    }>`
      SELECT occurred_at, tracking_number, carrier_barcode, service, amount::text AS amount, ${ADJUSTMENT_REASON_SQL} AS reason
        FROM billing_entries WHERE invoice_id = ${invoiceId} AND kind = 'adjustment' ORDER BY id LIMIT ${limit}`,
  );
}

const RECENT_ADJUSTMENTS = 50;

/** The portal's running total: every open entry (earlier stragglers included) and the latest adjustments' reasons. */
export async function openBillingPeriod(scope: Scope & { now: Date }): Promise<TOpenBillingPeriod> {
  const [settings, state, sums, recent] = await Promise.all([
    getBillingSettings(scope),
    openState(pgPool(), scope),
    queryRow(
      pgPool(),
      sql<{ line_count: number; total: string; charges: string; adjustments: string; voids: string; currency: string | null }>`
        SELECT count(*)::int AS line_count, COALESCE(sum(amount), 0)::numeric(16,2)::text AS total,
               COALESCE(sum(amount) FILTER (WHERE kind = 'charge'), 0)::numeric(16,2)::text AS charges,
               COALESCE(sum(amount) FILTER (WHERE kind = 'adjustment'), 0)::numeric(16,2)::text AS adjustments,
               (-COALESCE(sum(amount) FILTER (WHERE kind = 'void'), 0))::numeric(16,2)::text AS voids,
               max(currency) AS currency
          FROM billing_entries
         WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
           AND invoice_id IS NULL AND voided_at IS NULL`,
    ),
    queryRows(
      pgPool(),
      sql<{
        occurred_at: Date;
        tracking_number: string | null;
        carrier_barcode: string;
        service: string;
        amount: string;
        reason: string;
      }>`
        SELECT occurred_at, tracking_number, carrier_barcode, service, amount::text AS amount, ${ADJUSTMENT_REASON_SQL} AS reason
          FROM billing_entries
         WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
           AND invoice_id IS NULL AND voided_at IS NULL AND kind = 'adjustment'
         ORDER BY occurred_at DESC, id DESC LIMIT ${RECENT_ADJUSTMENTS}`,
    ),
  ]);
  const period = nextInvoicePeriod({
    oldestOpen: scope.now,
    lastEnd: state.lastEnd && state.lastEnd <= scope.now ? state.lastEnd : null,
    kind: settings.period,
    timeZone: settings.time_zone,
  });
  return {
    period_kind: settings.period,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    time_zone: settings.time_zone,
    currency: sums?.currency ?? 'USD',
    total: sums?.total ?? '0.00',
    line_count: sums?.line_count ?? 0,
    charges: sums?.charges ?? '0.00',
    adjustments: sums?.adjustments ?? '0.00',
    voids: sums?.voids ?? '0.00',
    recent_adjustments: recent.map((r) => ({ ...r, occurred_at: r.occurred_at.toISOString() })),
  };
}
