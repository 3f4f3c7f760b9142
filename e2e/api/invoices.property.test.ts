import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeOpenPeriodNow } from '@/lib/billing/invoices';
import { pgPool } from '@/lib/db';
import { execute, queryRows, sql } from '@/lib/sql';
import { newAccount } from './support/api';
import { insertEntries, packageId } from './support/ledger';

// Random histories of accepts (a charge), received scans (an adjustment, signed), cancels (voided_at on a charge not
// invoiced yet, else a void crediting it) and period closes, written to the ledger as the pricing code writes it, then
// every invoice checked against its own lines: total = the sum of its lines = charges + adjustments − voids; every
// entry before the last close is on exactly one invoice unless voided, and a voided charge on none; numbers 1..n.

type Step =
  | { op: 'accept'; cents: number }
  | { op: 'scan'; pick: number; cents: number }
  | { op: 'cancel'; pick: number }
  | { op: 'close' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('accept' as const), cents: fc.integer({ min: 1, max: 99_999 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('scan' as const), pick: fc.nat(), cents: fc.integer({ min: -5_000, max: 5_000 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'close' as const }) },
);

const money = (cents: number) => (cents / 100).toFixed(2);

interface Pkg {
  id: string;
  chargeEntry: string;
  chargeCents: number;
  cancelled: boolean;
}

describe('invoice totals over random ledger histories', () => {
  it('every invoice equals the sum of its lines and charges + adjustments − voids; nothing is billed twice or lost', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const account = await newAccount('Property');
        const scope = { accountId: account.accountId, environment: 'test' as const };
        // A clock of its own, a minute a step, in the past: closes are at these instants.
        let clock = Date.UTC(2026, 0, 1);
        const tick = () => new Date((clock += 60_000));
        const packages: Pkg[] = [];
        let lastClose: Date | null = null;
        for (const s of steps) {
          const at = tick();
          if (s.op === 'accept') {
            const id = packageId();
            const [entry] = await insertEntries(scope, [
              { kind: 'charge', amount: money(s.cents), occurredAt: at, packageId: id },
            ]);
            packages.push({ id, chargeEntry: entry ?? '', chargeCents: s.cents, cancelled: false });
          } else if (s.op === 'scan' || s.op === 'cancel') {
            const live = packages.filter((p) => !p.cancelled);
            const pkg = live[s.pick % Math.max(1, live.length)];
            if (!pkg) continue;
            if (s.op === 'scan') {
              await insertEntries(scope, [
                { kind: 'adjustment', amount: money(s.cents), occurredAt: at, packageId: pkg.id, reason: 'measured' },
              ]);
            } else {
              pkg.cancelled = true;
              // Not invoiced yet: voided where it stands (the trigger refuses this once it is invoiced).
              const voided = await execute(
                pgPool(),
                sql`UPDATE billing_entries SET voided_at = ${at} WHERE id = ${pkg.chargeEntry}::bigint AND invoice_id IS NULL`,
              );
              if (voided === 0)
                await insertEntries(scope, [
                  { kind: 'void', amount: money(-pkg.chargeCents), occurredAt: at, packageId: pkg.id },
                ]);
            }
          } else {
            await closeOpenPeriodNow({ ...scope, now: at });
            lastClose = at;
          }
        }
        const invoices = await queryRows(
          pgPool(),
          sql<{
            id: string;
            number: number;
            total: string;
            line_count: number;
            charges: string;
            adjustments: string;
            voids: string;
          }>`
            SELECT id, number, total::text AS total, line_count, totals->>'charges' AS charges, totals->>'adjustments' AS adjustments,
                   totals->>'voids' AS voids
              FROM invoices WHERE account_id = ${account.accountId}::uuid ORDER BY number`,
        );
        expect(invoices.map((i) => i.number)).toEqual(invoices.map((_, i) => i + 1));
        const cents = (text: string) => Math.round(Number(text) * 100);
        for (const invoice of invoices) {
          const [lines] = await queryRows(
            pgPool(),
            sql<{ n: number; sum: string }>`SELECT count(*)::int AS n, COALESCE(sum(amount), 0)::text AS sum FROM billing_entries
              WHERE invoice_id = ${invoice.id}`,
          );
          expect(lines?.n).toBe(invoice.line_count);
          expect(cents(lines?.sum ?? '0')).toBe(cents(invoice.total));
          expect(cents(invoice.charges) + cents(invoice.adjustments) - cents(invoice.voids)).toBe(cents(invoice.total));
        }
        const entries = await queryRows(
          pgPool(),
          sql<{ invoice_id: string | null; voided_at: Date | null; occurred_at: Date }>`
            SELECT invoice_id, voided_at, occurred_at FROM billing_entries WHERE account_id = ${account.accountId}::uuid`,
        );
        for (const e of entries) {
          if (e.voided_at) expect(e.invoice_id).toBeNull();
          else if (lastClose && e.occurred_at < lastClose) expect(e.invoice_id).not.toBeNull();
        }
      }),
      { numRuns: 25 },
    );
  });
});
