import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import { call, newAccount, tracking } from './support/api';
import { expressPackage } from './support/pricing';

// The invoice property again, driven through the pricing code itself rather than ledger inserts: random sequences of
// accepted packages (POST /wf/package: a charge), received scans with a measured weight (POST /ops/scans: an
// adjustment when it prices differently), cancels (POST /packages/{TrackingNumber}/cancel: the charge voided, or a
// void row once invoiced) and test-path closes (POST /invoices/close). Every invoice's total is the sum of its lines
// and charges + adjustments − voids; no voided charge is invoiced; every other entry before the last close is.

type Step = { op: 'accept' } | { op: 'scan'; pick: number; weight: number } | { op: 'cancel'; pick: number } | { op: 'close' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ op: 'accept' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('scan' as const), pick: fc.nat(), weight: fc.integer({ min: 1, max: 60 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ op: 'close' as const }) },
);

let ops: string;

beforeAll(async () => {
  ops = (await createOpsToken({ name: 'invoice property' })).token;
});

describe('invoices over random histories through the pricing code', () => {
  it('total = sum of lines = charges + adjustments − voids; voided charges never billed; nothing left behind', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 12 }), async (steps) => {
        const account = await newAccount('Priced property');
        const token = account.tokens.test;
        const packages: { tn: string; barcode: string; received: boolean; cancelled: boolean }[] = [];
        let lastClose: Date | null = null;
        for (const s of steps) {
          if (s.op === 'accept') {
            const tn = tracking('IP');
            const accepted = await call('/wf/package', { token, body: expressPackage(tn) });
            expect(accepted.status, accepted.text).toBe(200);
            const read = await call(`/packages/${tn}`, { method: 'GET', token });
            packages.push({ tn, barcode: read.json.carrier_barcode as string, received: false, cancelled: false });
          } else if (s.op === 'scan') {
            const open = packages.filter((p) => !p.cancelled && !p.received);
            const pkg = open[s.pick % Math.max(1, open.length)];
            if (!pkg) continue;
            const scanned = await call('/ops/scans', {
              token: ops,
              body: {
                scans: [
                  {
                    scan_id: `ip-${randomUUID()}`,
                    carrier_barcode: pkg.barcode,
                    event: 'received',
                    location: 'JFK',
                    occurred_at: new Date().toISOString(),
                    measured: { weight: s.weight, weight_unit: 'lb' },
                  },
                ],
              },
            });
            expect(scanned.status, scanned.text).toBe(200);
            pkg.received = true;
          } else if (s.op === 'cancel') {
            // Only before the carrier has it: a received package is not cancellable.
            const open = packages.filter((p) => !p.cancelled && !p.received);
            const pkg = open[s.pick % Math.max(1, open.length)];
            if (!pkg) continue;
            const cancelled = await call(`/packages/${pkg.tn}/cancel`, { token, body: {} });
            expect(cancelled.status, cancelled.text).toBe(200);
            pkg.cancelled = true;
          } else {
            const closed = await call('/invoices/close', { token, body: {} });
            expect(closed.status, closed.text).toBe(200);
            lastClose = new Date(closed.json.invoice?.period_end ?? Date.now());
          }
        }
        const invoices = await queryRows(
          pgPool(),
          sql<{ id: string; number: number; total: string; line_count: number; totals: Record<string, string> }>`
            SELECT id, number, total::text AS total, line_count, totals FROM invoices
             WHERE account_id = ${account.accountId}::uuid AND environment = 'test' ORDER BY number`,
        );
        expect(invoices.map((i) => i.number)).toEqual(invoices.map((_, i) => i + 1));
        const cents = (text: string | undefined) => Math.round(Number(text ?? '0') * 100);
        for (const invoice of invoices) {
          const [lines] = await queryRows(
            pgPool(),
            sql<{ n: number; sum: string }>`SELECT count(*)::int AS n, COALESCE(sum(amount), 0)::text AS sum FROM billing_entries
              WHERE invoice_id = ${invoice.id}`,
          );
          expect(lines?.n).toBe(invoice.line_count);
          expect(cents(lines?.sum)).toBe(cents(invoice.total));
          expect(cents(invoice.totals.charges) + cents(invoice.totals.adjustments) - cents(invoice.totals.voids)).toBe(
            cents(invoice.total),
          );
        }
        const entries = await queryRows(
          pgPool(),
          sql<{ kind: string; invoice_id: string | null; voided_at: Date | null; occurred_at: Date }>`
            SELECT kind, invoice_id, voided_at, occurred_at FROM billing_entries WHERE account_id = ${account.accountId}::uuid`,
        );
        expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(packages.length);
        for (const e of entries) {
          if (e.voided_at) expect(e.invoice_id).toBeNull();
          else if (lastClose && e.occurred_at < lastClose) expect(e.invoice_id).not.toBeNull();
        }
      }),
      { numRuns: 8 },
    );
  }, 240_000);
});
