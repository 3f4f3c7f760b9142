import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueDueInvoice, issueDueInvoices } from '@/lib/billing/invoices';
import { pgPool } from '@/lib/db';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { baseUrl, call, newAccount, pathFor, type Env, type TestAccount } from './support/api';
import { insertEntries } from './support/ledger';

// Invoices over the API (GET /invoices, /invoices/{id}, its CSV lines and PDF; POST /invoices/close on the test
// path), issued from ledger rows written at chosen instants (support/ledger.ts): numbers without gaps, the ledger's
// and the invoices' immutability, stragglers and later adjustments on the next invoice, voided charges never billed,
// and a test invoice marked TEST.

const dir = mkdtempSync(path.join(tmpdir(), 'invoices-'));

function pdfPages(bytes: Uint8Array): string[] {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'])
    .toString()
    .split('\f')
    .filter((page) => page.trim() !== '');
}

async function download(account: TestAccount, apiPath: string, env: Env) {
  const response = await fetch(baseUrl + pathFor(env, apiPath), { headers: { authorization: `Token ${account.tokens[env]}` } });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** RFC 4180 cells of one line (quoted cells may hold commas and doubled quotes). */
function cellsOf(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : (m[2] ?? ''),
  );
}

function csvRows(bytes: Uint8Array): Record<string, string>[] {
  const [head, ...lines] = new TextDecoder().decode(bytes).split('\r\n').filter(Boolean);
  const columns = cellsOf(head ?? '');
  return lines.map((line) => Object.fromEntries(cellsOf(line).map((cell, i) => [columns[i] ?? '', cell])));
}

/** Exact sum of two-decimal strings, in cents. */
const cents = (values: readonly string[]) => values.reduce((sum, v) => sum + BigInt(Math.round(Number(v) * 100)), 0n);

const at = (iso: string) => new Date(iso);

describe('invoices of closed periods', () => {
  let account: TestAccount;
  let september: { id: string; number: number; total: string };

  beforeAll(async () => {
    account = await newAccount('Invoiced');
    await insertEntries({ accountId: account.accountId, environment: 'live' }, [
      {
        kind: 'charge',
        amount: '10.00',
        occurredAt: at('2026-09-02T10:00:00Z'),
        service: 'ground',
        manifestId: 'MAN-SEPT000000000001',
      },
      {
        kind: 'charge',
        amount: '12.35',
        occurredAt: at('2026-09-15T10:00:00Z'),
        service: 'express',
        manifestId: 'MAN-SEPT000000000001',
      },
      {
        kind: 'charge',
        amount: '7.40',
        occurredAt: at('2026-09-30T23:59:59.999Z'),
        service: 'ground',
        manifestId: 'MAN-SEPT000000000002',
      },
      {
        kind: 'adjustment',
        amount: '2.15',
        occurredAt: at('2026-09-20T08:00:00Z'),
        service: 'express',
        manifestId: 'MAN-SEPT000000000001',
        reason: 'measured weight 4.2 lb, declared 2 lb',
      },
      // Voided before any invoice: never billed.
      { kind: 'charge', amount: '99.00', occurredAt: at('2026-09-03T00:00:00Z'), voidedAt: at('2026-09-04T00:00:00Z') },
      // October's: on the next invoice.
      { kind: 'charge', amount: '5.00', occurredAt: at('2026-10-01T00:00:00Z') },
    ]);
    await issueDueInvoice({ accountId: account.accountId, environment: 'live', now: new Date() });
    // Whoever issued it (this call, or a server's periodic job racing it), there is one September invoice.
    const listed = await call('/invoices', { env: 'live', method: 'GET', token: account.tokens.live });
    const invoice = listed.json.data.find((i: { period_start: string }) => i.period_start === '2026-09-01T00:00:00.000Z');
    expect(invoice, listed.text).toBeDefined();
    september = { id: invoice.id, number: invoice.number, total: invoice.total };
  });

  it('bills September: charges and adjustments before its end, not the voided charge nor October', async () => {
    const got = await call(`/invoices/${september.id}`, { env: 'live', method: 'GET', token: account.tokens.live });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toMatchObject({
      id: september.id,
      object: 'invoice',
      number: 1,
      test: false,
      period_kind: 'month',
      period_start: '2026-09-01T00:00:00.000Z',
      period_end: '2026-10-01T00:00:00.000Z',
      time_zone: 'UTC',
      currency: 'USD',
      total: '31.90',
      line_count: 4,
      totals: {
        charges: '29.75',
        adjustments: '2.15',
        voids: '0.00',
        by_service: [
          { service: 'express', lines: 2, amount: '14.50' },
          { service: 'ground', lines: 2, amount: '17.40' },
        ],
      },
      manifest_count: 2,
    });
  });

  it('lists it, newest first, in the list envelope with a keyset cursor', async () => {
    // October's invoice, issued by the periodic job's own function (October is long over).
    await issueDueInvoices({ now: new Date() });
    const first = await call('/invoices?limit=1', { env: 'live', method: 'GET', token: account.tokens.live });
    expect(first.status, first.text).toBe(200);
    expect(first.json.object).toBe('list');
    expect(first.json.data).toHaveLength(1);
    expect(first.json.data[0].number).toBe(2);
    expect(first.json.has_more).toBe(true);
    const second = await call(`/invoices?limit=1&cursor=${first.json.next_cursor}`, {
      env: 'live',
      method: 'GET',
      token: account.tokens.live,
    });
    expect(second.json.data.map((i: { id: string }) => i.id)).toEqual([september.id]);
    expect(second.json.has_more).toBe(false);
    expect(second.json.next_cursor).toBeNull();
    // The test environment's invoices are its own.
    const test = await call('/invoices', { env: 'test', method: 'GET', token: account.tokens.test });
    expect(test.json.data).toEqual([]);
  });

  it('streams its lines as CSV whose amounts sum to its total', async () => {
    const csv = await download(account, `/invoices/${september.id}/lines`, 'live');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice-1-lines\.csv"$/);
    const rows = csvRows(csv.bytes);
    expect(rows).toHaveLength(4);
    expect(cents(rows.map((r) => r.amount ?? '0'))).toBe(3190n);
    expect(rows.map((r) => r.kind).sort()).toEqual(['adjustment', 'charge', 'charge', 'charge']);
    expect(rows.find((r) => r.kind === 'adjustment')?.reason).toBe('measured weight 4.2 lb, declared 2 lb');
  });

  it('renders the PDF with totals by service and by manifest and the adjustment with its reason, without TEST in live', async () => {
    const pdf = await download(account, `/invoices/${september.id}/document`, 'live');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const pages = pdfPages(pdf.bytes);
    const all = pages.join('\n');
    expect(all).toContain('INV-000001');
    expect(all).toMatch(/Total\s+31\.90 USD/);
    expect(all).toMatch(/express\s+2\s+14\.50/);
    expect(all).toMatch(/MAN-SEPT000000000002\s+1\s+7\.40/);
    expect(all).toContain('measured weight 4.2 lb, declared 2 lb');
    expect(all).not.toContain('TEST');
  });

  it('numbers invoices 1, 2, 3 without gaps: a period with no entries has no invoice and takes no number', async () => {
    const gapless = await newAccount('Gapless');
    const scope = { accountId: gapless.accountId, environment: 'live' as const };
    await insertEntries(scope, [
      { kind: 'charge', amount: '1.00', occurredAt: at('2026-06-10T00:00:00Z') },
      // Nothing in July.
      { kind: 'charge', amount: '2.00', occurredAt: at('2026-08-10T00:00:00Z') },
      { kind: 'charge', amount: '3.00', occurredAt: at('2026-09-10T00:00:00Z') },
    ]);
    for (let i = 0; i < 4; i++) await issueDueInvoice({ ...scope, now: new Date() });
    const listed = await call('/invoices', { env: 'live', method: 'GET', token: gapless.tokens.live });
    const issued = (listed.json.data as { number: number; period_start: string; total: string }[]).reverse();
    expect(issued.map((invoice) => [invoice.number, invoice.period_start.slice(0, 7), invoice.total])).toEqual([
      [1, '2026-06', '1.00'],
      [2, '2026-08', '2.00'],
      [3, '2026-09', '3.00'],
    ]);
    const counter = await queryRow(
      pgPool(),
      sql<{
        last_number: number;
      }>`SELECT last_number FROM invoice_counters WHERE account_id = ${gapless.accountId}::uuid AND environment = 'live'`,
    );
    expect(counter?.last_number).toBe(3);
  });

  it('refuses any change to an invoiced entry and to an issued invoice', async () => {
    const [line] = await queryRows(
      pgPool(),
      sql<{ id: string }>`SELECT id::text AS id FROM billing_entries WHERE invoice_id = ${september.id} LIMIT 1`,
    );
    await expect(execute(pgPool(), sql`UPDATE billing_entries SET amount = 0 WHERE id = ${line.id}::bigint`)).rejects.toThrow(
      /cannot change/,
    );
    await expect(
      execute(pgPool(), sql`UPDATE billing_entries SET invoice_id = NULL WHERE id = ${line.id}::bigint`),
    ).rejects.toThrow(/cannot change/);
    await expect(execute(pgPool(), sql`UPDATE invoices SET total = 0 WHERE id = ${september.id}`)).rejects.toThrow(
      /cannot change/,
    );
    const got = await call(`/invoices/${september.id}`, { env: 'live', method: 'GET', token: account.tokens.live });
    expect(got.json.total).toBe('31.90');
  });

  it('emits invoice.created in the issuing transaction, its type in the signed body', async () => {
    const events = await queryRows(
      pgPool(),
      sql<{ payload: { type: string; invoice: { id: string; number: number } } }>`
        SELECT payload FROM webhook_events WHERE account_id = ${account.accountId}::uuid AND event_type = 'invoice.created'
        ORDER BY created_at`,
    );
    expect(events.map((e) => [e.payload.type, e.payload.invoice.number])).toEqual([
      ['invoice.created', 1],
      ['invoice.created', 2],
    ]);
    expect(events[0]?.payload.invoice.id).toBe(september.id);
  });
});

describe('the test path: close now, stragglers and later adjustments, TEST on every page', () => {
  let account: TestAccount;
  const scope = () => ({ accountId: account.accountId, environment: 'test' as const });
  const close = () => call('/invoices/close', { env: 'test', token: account.tokens.test, body: {} });

  beforeAll(async () => {
    account = await newAccount('Test invoices');
  });

  it('closes everything open now as one on_demand invoice; closing again with nothing open answers null', async () => {
    const now = Date.now();
    await insertEntries(scope(), [
      { kind: 'charge', amount: '4.25', occurredAt: new Date(now - 60_000) },
      { kind: 'charge', amount: '6.00', occurredAt: new Date(now - 30_000), service: 'express' },
    ]);
    const closed = await close();
    expect(closed.status, closed.text).toBe(200);
    expect(closed.json.invoice).toMatchObject({ number: 1, test: true, period_kind: 'on_demand', total: '10.25', line_count: 2 });
    expect(Date.parse(closed.json.invoice.period_end)).toBeGreaterThanOrEqual(now);
    const again = await close();
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ object: 'invoice_close', invoice: null });
  });

  it('puts an adjustment to an invoiced package on the next invoice, never the issued one', async () => {
    const [first] = (await call('/invoices', { env: 'test', method: 'GET', token: account.tokens.test })).json.data;
    // A straggler: re-rated at a scan whose time is before the first invoice's end, written after it was issued.
    await insertEntries(scope(), [
      {
        kind: 'adjustment',
        amount: '-1.10',
        occurredAt: new Date(Date.parse(first.period_end) - 1_000),
        reason: 'measured 1 lb lighter',
      },
      { kind: 'void', amount: '-4.25', occurredAt: new Date(), reason: 'cancelled' },
    ]);
    const closed = await close();
    expect(closed.json.invoice).toMatchObject({
      number: 2,
      period_start: first.period_end,
      total: '-5.35',
      totals: { charges: '0.00', adjustments: '-1.10', voids: '4.25' },
    });
    const again = await call(`/invoices/${first.id}`, { env: 'test', method: 'GET', token: account.tokens.test });
    expect(again.json).toMatchObject({ total: '10.25', line_count: 2 });
    const lines = csvRows((await download(account, `/invoices/${first.id}/lines`, 'test')).bytes);
    expect(lines).toHaveLength(2);
  });

  it('streams every line of a long invoice in order, across batches and ids of different lengths', async () => {
    // Ids from 9,999,994,000 to 10,000,005,999: ten digits, then eleven, so that a text ordering ('10…' < '9…') or a
    // batch boundary that loses a row would show; explicit ids, far above the sequence's.
    await execute(
      pgPool(),
      sql`INSERT INTO billing_entries (id, account_id, environment, kind, package_id, manifest_id, carrier_barcode, service, amount, occurred_at)
          SELECT 9999994000 + g, ${account.accountId}::uuid, 'test', 'charge', 9999994000 + g, 'MAN-LONG0000000000001', 'CB' || g, 'ground',
                 0.01, now() - interval '1 second'
            FROM generate_series(0, 11999) AS g`,
    );
    const closed = await close();
    expect(closed.json.invoice).toMatchObject({ line_count: 12_000, total: '120.00' });
    const rows = csvRows((await download(account, `/invoices/${closed.json.invoice.id}/lines`, 'test')).bytes);
    expect(rows).toHaveLength(12_000);
    const ids = rows.map((r) => BigInt(r.line_id ?? '0'));
    expect(ids[0]).toBe(9_999_994_000n);
    expect(ids.every((id, i) => i === 0 || id === (ids[i - 1] ?? 0n) + 1n)).toBe(true);
  });

  it('marks a test invoice TEST on every page of its PDF', async () => {
    // Enough manifests for several pages.
    await insertEntries(
      scope(),
      Array.from({ length: 150 }, (_, i) => ({
        kind: 'charge' as const,
        amount: '1.00',
        occurredAt: new Date(Date.now() - 5_000),
        manifestId: `MAN-PAGE${String(i).padStart(12, '0')}`,
      })),
    );
    const closed = await close();
    expect(closed.json.invoice.line_count).toBe(150);
    const pdf = await download(account, `/invoices/${closed.json.invoice.id}/document`, 'test');
    expect(pdf.status).toBe(200);
    const pages = pdfPages(pdf.bytes);
    expect(pages.length).toBeGreaterThan(2);
    for (const [i, page] of pages.entries()) {
      expect(page).toContain('TEST');
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    }
    expect(pdf.headers.get('content-disposition')).toContain('INV-000004-test.pdf');
  });
});
