// `npm run bench -- --only invoices`: issuing an invoice over ENTRIES ledger rows (goal < 60 s) and streaming its lines
// as CSV (goal ≥ 50,000 rows/s), each beside a baseline from the same run on the same database:
//  - issue: lib/billing/invoices.ts issueDueInvoice (the periodic job's own function: the lock, the counter, the one
//    UPDATE … RETURNING summed in its statement, the invoice row and its event) against PostgreSQL's bare UPDATE of the
//    same rows (no trigger, no sums, rolled back): what the machine can do at most for that write;
//  - CSV: GET /api/1.1/invoices/{id}/lines through the production server, every byte read and its rows counted, against
//    `COPY (SELECT the same columns) TO STDOUT` read by a bare client: PostgreSQL's own export of those rows. The server
//    worker's resident memory is sampled before, during (peak) and after: a streamed export holds one batch, not the
//    invoice.
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
    // Spread over last month's days, 200 manifests, three services, a tenth of them adjustments with a reason.
    await client.query(
      `INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, tracking_number, carrier_barcode,
                                    service, amount, occurred_at, detail)
       SELECT $1::uuid, 'live', CASE WHEN g % 10 = 0 THEN 'adjustment' ELSE 'charge' END, g,
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

    log('invoices: streaming the lines as CSV through the server');
    const rssBeforeMb = options.rss(options.serverPid);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, options.rss(options.serverPid));
    }, 100);
    const csvStart = performance.now();
    const response = await fetch(`${serverUrl}/api/1.1/invoices/${invoiceId}/lines`, {
      headers: { authorization: `Token ${liveToken}` },
    });
    if (response.status !== 200 || !response.body) throw new Error(`GET …/lines answered ${response.status}`);
    let newlines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines += 1;
    }
    const csvSeconds = (performance.now() - csvStart) / 1000;
    clearInterval(sampler);
    const rssAfterMb = options.rss(options.serverPid);
    const csvRows = newlines - 1;
    if (csvRows !== ENTRIES) throw new Error(`the CSV has ${csvRows} rows, not ${ENTRIES}`);
    return {
      csvRows,
      csvSeconds,
      csvRowsPerSecond: Math.round(csvRows / csvSeconds),
      copyRowsPerSecond: Math.round(copyRows / copySeconds),
      rssBeforeMb,
      rssPeakMb,
      rssAfterMb,
    };
  } finally {
    await client.end();
  }
}
