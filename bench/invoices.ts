// `npm run bench -- --only invoices`: issuing an invoice over ENTRIES ledger rows (goal < 60 s) and streaming its lines
// as CSV (goal ≥ 50,000 rows/s), each beside a baseline from the same run on the same database:
//  - issue: lib/billing/invoices.ts issueDueInvoice (the periodic job's own function: the lock, the counter, the one
//    UPDATE … RETURNING summed in its statement, the invoice row and its event) against PostgreSQL's bare UPDATE of the
//    same rows (no trigger, no sums, rolled back): what the machine can do at most for that write;
//  - CSV: GET /api/1.1/invoices/{id}/lines through the production server, every byte read and its rows counted, against
//    `COPY (SELECT the same columns) TO STDOUT` read by a bare client: PostgreSQL's own export of those rows. The server
//    worker's resident memory is sampled before, during (peak) and after: a streamed export holds one batch, not the
//    invoice. Two downloads, the second measured (goal: RSS growth < 50 MB, as the package export's).
import pg from 'pg';

export const ENTRIES = Number(process.env.BENCH_INVOICE_ENTRIES ?? 1_000_000);

export interface IssueResult {
  entries: number;
  issueSeconds: number;
  baselineUpdateSeconds: number;
  invoiceId: string;
  lineCount: number;
  total: string;
}

export interface CsvResult {
  csvRows: number;
  csvSeconds: number;
  csvRowsPerSecond: number;
  copyRowsPerSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  /** The first download, on the fresh server. */
  coldRowsPerSecond: number;
  coldRssBeforeMb: number;
  coldRssPeakMb: number;
  /** The first download's RSS once a tenth of the rows has streamed, and its peak over the other nine tenths. */
  coldRssAtTenthMb: number;
  coldRssPeakAfterTenthMb: number;
}

/** Before any server starts: no periodic job can issue the invoice first. */
export async function runInvoiceIssue(options: {
  databaseUrl: string;
  accountId: string;
  log: (m: string) => void;
}): Promise<IssueResult> {
  const { databaseUrl, accountId, log } = options;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    log(`invoices: writing ${ENTRIES.toLocaleString('en-US')} ledger rows in last month`);
    // Spread over last month's days, 200 manifests, three services, a tenth of them adjustments with a reason. Package
    // ids are negative: no package has one, so the one-charge-per-package key never meets the charges of packages that
    // an earlier case of the run accepted (pricing, before this, wrote ids from 1).
    await client.query(
      `INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, tracking_number, carrier_barcode,
                                    service, amount, occurred_at, detail)
       SELECT $1::uuid, 'live', CASE WHEN g % 10 = 0 THEN 'adjustment' ELSE 'charge' END, -g,
              'MAN-BENCH' || lpad((g % 200)::text, 12, '0'), 'TN' || g, 'CB' || g,
              (ARRAY['ground', 'express', 'priority'])[1 + g % 3],
              CASE WHEN g % 10 = 0 THEN ((g % 300) - 150) / 100.0 ELSE 4 + (g % 1000) / 100.0 END,
              date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 month' + (g % 27) * interval '1 day',
              CASE WHEN g % 10 = 0 THEN '{"reason":"measured weight differs from declared"}'::jsonb ELSE '{}'::jsonb END
         FROM generate_series(1, $2::int) AS g`,
      [accountId, ENTRIES],
    );
    await client.query('ANALYZE billing_entries');

    log('invoices: baseline, the bare UPDATE of the same rows (rolled back)');
    await client.query('BEGIN');
    await client.query('ALTER TABLE billing_entries DISABLE TRIGGER billing_entries_invoiced_are_final');
    const baseStart = performance.now();
    await client.query(
      `UPDATE billing_entries SET invoice_id = 'inv_baseline' WHERE account_id = $1::uuid AND environment = 'live'
         AND invoice_id IS NULL AND voided_at IS NULL AND occurred_at < date_trunc('month', now())`,
      [accountId],
    );
    const baselineUpdateSeconds = (performance.now() - baseStart) / 1000;
    await client.query('ROLLBACK');
    await client.query('VACUUM billing_entries');

    log('invoices: issuing the invoice');
    const { issueDueInvoice } = await import('@/lib/billing/invoices');
    const issueStart = performance.now();
    const invoice = await issueDueInvoice({ accountId, environment: 'live', now: new Date() });
    const issueSeconds = (performance.now() - issueStart) / 1000;
    if (!invoice) throw new Error('no invoice was issued');
    if (invoice.line_count !== ENTRIES) throw new Error(`the invoice has ${invoice.line_count} lines, not ${ENTRIES}`);
    return {
      entries: ENTRIES,
      issueSeconds,
      baselineUpdateSeconds,
      invoiceId: invoice.id,
      lineCount: invoice.line_count,
      total: invoice.total,
    };
  } finally {
    await client.end();
  }
}

export async function runInvoiceCsv(options: {
  serverUrl: string;
  serverPid: number;
  databaseUrl: string;
  invoiceId: string;
  liveToken: string;
  rss: (pid: number) => number;
  log: (m: string) => void;
}): Promise<CsvResult> {
  const { serverUrl, databaseUrl, liveToken, log, invoiceId } = options;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    log('invoices: baseline, COPY of the same lines');
    const copyStart = performance.now();
    const copied = await client.query(
      `COPY (SELECT id, kind, occurred_at, manifest_id, tracking_number, carrier_barcode, service, amount, currency, detail->>'reason'
               FROM billing_entries WHERE invoice_id = '${invoiceId}' ORDER BY invoice_id, id) TO STDOUT WITH (FORMAT csv)`,
    );
    const copySeconds = (performance.now() - copyStart) / 1000;
    const copyRows = copied.rowCount ?? ENTRIES;

    // As the package export's bench (bench/scale.ts): one download on the fresh server first (its code compiled, its
    // export pool opened, V8's young generation grown to the allocation rate), then the measured one. Flat memory is
    // about what the server holds while it streams, which the second shows; the first's growth is reported beside it.
    const download = async (label: string) => {
      log(`invoices: streaming the lines as CSV through the server (${label})`);
      const before = options.rss(options.serverPid);
      let peakMb = before;
      // Whether memory grows with the rows or only once: the RSS when a tenth has streamed, and the peak after it.
      let atTenthMb: number | undefined;
      let peakAfterTenthMb = 0;
      const sampler = setInterval(() => {
        const now = options.rss(options.serverPid);
        peakMb = Math.max(peakMb, now);
        if (atTenthMb !== undefined) peakAfterTenthMb = Math.max(peakAfterTenthMb, now);
      }, 100);
      const start = performance.now();
      const response = await fetch(`${serverUrl}/api/1.1/invoices/${invoiceId}/lines`, {
        headers: { authorization: `Token ${liveToken}` },
      });
      if (response.status !== 200 || !response.body) throw new Error(`GET …/lines answered ${response.status}`);
      let newlines = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines += 1;
        if (atTenthMb === undefined && newlines > ENTRIES / 10) {
          atTenthMb = options.rss(options.serverPid);
          peakAfterTenthMb = atTenthMb;
        }
      }
      const seconds = (performance.now() - start) / 1000;
      clearInterval(sampler);
      const rows = newlines - 1;
      if (rows !== ENTRIES) throw new Error(`the CSV has ${rows} rows, not ${ENTRIES}`);
      log(
        `  ${Math.round(rows / seconds)} rows/s, RSS ${before.toFixed(0)} → peak ${peakMb.toFixed(0)} MB; at a tenth ${atTenthMb?.toFixed(0)}, peak after it ${peakAfterTenthMb.toFixed(0)} MB`,
      );
      return {
        rows,
        seconds,
        before,
        peakMb,
        after: options.rss(options.serverPid),
        atTenthMb: atTenthMb ?? Number.NaN,
        peakAfterTenthMb,
      };
    };
    const cold = await download('first, on the fresh server');
    const measured = await download('measured');
    return {
      csvRows: measured.rows,
      csvSeconds: measured.seconds,
      csvRowsPerSecond: Math.round(measured.rows / measured.seconds),
      copyRowsPerSecond: Math.round(copyRows / copySeconds),
      rssBeforeMb: measured.before,
      rssPeakMb: measured.peakMb,
      rssAfterMb: measured.after,
      coldRowsPerSecond: Math.round(cold.rows / cold.seconds),
      coldRssBeforeMb: cold.before,
      coldRssPeakMb: cold.peakMb,
      coldRssAtTenthMb: cold.atTenthMb,
      coldRssPeakAfterTenthMb: cold.peakAfterTenthMb,
    };
  } finally {
    await client.end();
  }
}
