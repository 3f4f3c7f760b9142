import { randomInt } from 'node:crypto';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';

// Billing ledger rows written straight to the run's database, as the pricing code writes them (a charge at acceptance,
// an adjustment at a received scan, a void for an invoiced charge): the invoice tests need entries at chosen instants,
// in past periods, which no request can make. package_id has no foreign key; each charge gets an id of its own.

export interface LedgerEntry {
  kind: 'charge' | 'adjustment' | 'void';
  amount: string;
  occurredAt: Date;
  service?: string;
  manifestId?: string;
  packageId?: string;
  reason?: string;
  voidedAt?: Date;
}

let next = BigInt(randomInt(1, 2 ** 40)) * 1000n;
/** A package id no other test of the run uses. */
export const packageId = () => String((next += 1n));

export async function insertEntries(
  scope: { accountId: string; environment: 'test' | 'live' },
  entries: readonly LedgerEntry[],
): Promise<string[]> {
  const rows = await queryRows(
    pgPool(),
    sql<{ id: string }>`
      INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, tracking_number, carrier_barcode, service,
                                   amount, occurred_at, detail, voided_at)
      SELECT ${scope.accountId}::uuid, ${scope.environment}::"Environment", e.kind, e.package_id::bigint, e.manifest_id,
             'TN' || e.package_id, 'CB' || e.package_id, e.service, e.amount::numeric, e.occurred_at, e.detail::jsonb, e.voided_at
        FROM unnest(${entries.map((e) => e.kind)}::text[], ${entries.map((e) => e.packageId ?? packageId())}::text[],
                    ${entries.map((e) => e.manifestId ?? 'MAN-TEST0000000000001')}::text[], ${entries.map((e) => e.service ?? 'ground')}::text[],
                    ${entries.map((e) => e.amount)}::text[], ${entries.map((e) => e.occurredAt)}::timestamptz[],
                    ${entries.map((e) => JSON.stringify(e.reason ? { reason: e.reason } : {}))}::text[],
                    ${entries.map((e) => e.voidedAt ?? null)}::timestamptz[])
             WITH ORDINALITY AS e(kind, package_id, manifest_id, service, amount, occurred_at, detail, voided_at, ord)
       ORDER BY e.ord
      RETURNING id::text AS id`,
  );
  return rows.map((r) => r.id);
}
