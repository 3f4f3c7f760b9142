import 'server-only';
import type pg from 'pg';
import { execute, queryRows, sql } from '@/lib/sql';

export interface VoidTarget {
  table: 'packages' | 'container_packages';
  id: string;
}

/**
 * Voids the charges of packages cancelled before possession (docs/decisions/money.md): not yet invoiced, voided_at;
 * already invoiced, a 'void' row credits it next time. Charge rows are locked first: voided before invoiced or credited after.
 */
export async function voidCharges(client: pg.PoolClient, targets: readonly VoidTarget[], at: Date): Promise<void> {
  if (targets.length === 0) return;
  const daily = targets.filter((t) => t.table === 'packages').map((t) => t.id);
  const contained = targets.filter((t) => t.table === 'container_packages').map((t) => t.id);
  const charges = await queryRows(
    client,
    sql<{ id: string; invoiced: boolean; voided: boolean }>`
      SELECT id::text AS id, invoice_id IS NOT NULL AS invoiced, voided_at IS NOT NULL AS voided FROM billing_entries
      WHERE kind = 'charge' AND (package_id = ANY(${daily}::bigint[]) OR container_package_id = ANY(${contained}::bigint[]))
      ORDER BY id FOR UPDATE`,
  );
  const open = charges.filter((c) => !c.invoiced && !c.voided).map((c) => c.id);
  const invoiced = charges.filter((c) => c.invoiced).map((c) => c.id);
  if (open.length > 0) {
    await execute(
      client,
      sql`UPDATE billing_entries SET voided_at = ${at} WHERE id = ANY(${open}::bigint[]) AND invoice_id IS NULL`,
    );
  }
  if (invoiced.length > 0) {
    await execute(
      client,
      sql`INSERT INTO billing_entries (account_id, environment, kind, package_id, container_package_id, manifest_id, tracking_number,
                                       carrier_barcode, service, amount, currency, occurred_at, detail)
          SELECT c.account_id, c.environment, 'void', c.package_id, c.container_package_id, c.manifest_id, c.tracking_number,
                 c.carrier_barcode, c.service, -c.amount, c.currency, ${at}, jsonb_build_object('voids', c.id::text, 'invoice_id', c.invoice_id)
          FROM billing_entries c
          WHERE c.id = ANY(${invoiced}::bigint[])
            AND NOT EXISTS (SELECT 1 FROM billing_entries v
                            WHERE (v.package_id = c.package_id OR v.container_package_id = c.container_package_id)
                              AND v.kind = 'void' AND v.detail->>'voids' = c.id::text)`,
    );
  }
  const voided = sql`jsonb_build_object('status', 'voided', 'voided_at', ${at.toISOString()}::text)`;
  if (daily.length > 0) {
    await execute(
      client,
      sql`UPDATE packages SET charge = charge || ${voided} WHERE id = ANY(${daily}::bigint[]) AND charge->>'status' = 'priced'`,
    );
  }
  if (contained.length > 0) {
    await execute(
      client,
      sql`UPDATE container_packages SET charge = charge || ${voided}
          WHERE id = ANY(${contained}::bigint[]) AND charge->>'status' = 'priced'`,
    );
  }
}
