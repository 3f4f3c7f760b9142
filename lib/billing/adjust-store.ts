import 'server-only';
import type pg from 'pg';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import type { TMeasured } from '@/lib/schemas/lifecycle';
import type { TCharge } from '@/lib/schemas/rate';
import { execute, queryRows, sql } from '@/lib/sql';
import { rerate, type Rerated, type StoredForRerating } from './adjust';

export interface Measurement {
  table: 'packages' | 'container_packages';
  id: string;
  measured: TMeasured;
  scanId: string | null;
}

interface StoredRow {
  id: string;
  charge: TCharge | null;
  body: Record<string, unknown>;
  header: Record<string, unknown> | null;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Re-rates in the scan's transaction, on rows it holds locked, so two received scans of one package re-rate in turn.
 * Each difference is one 'adjustment' ledger row (unique per scan_id) and an updated charge.
 */
export async function adjustMeasured(client: pg.PoolClient, measurements: readonly Measurement[]): Promise<Map<number, Rerated>> {
  const out = new Map<number, Rerated>();
  if (measurements.length === 0) return out;
  const ids = (table: Measurement['table']) => measurements.filter((m) => m.table === table).map((m) => m.id);
  const rows = [
    ...(
      await queryRows(
        client,
        sql<StoredRow>`SELECT id::text AS id, charge, data AS body, NULL::jsonb AS header FROM packages WHERE id = ANY(${ids('packages')}::bigint[])`,
      )
    ).map((r) => ({ ...r, table: 'packages' as const })),
    ...(
      await queryRows(
        client,
        sql<StoredRow>`SELECT cp.id::text AS id, cp.charge, cp.detail AS body, m.header FROM container_packages cp
                     JOIN container_manifests m ON m.id = cp.manifest_id WHERE cp.id = ANY(${ids('container_packages')}::bigint[])`,
      )
    ).map((r) => ({ ...r, table: 'container_packages' as const })),
  ];
  const stored = new Map(rows.map((r) => [`${r.table}:${r.id}`, r]));
  const cards = await activeRateCards.get();
  const now = new Date();
  measurements.forEach((m, index) => {
    const row = stored.get(`${m.table}:${m.id}`);
    if (!row) return;
    const b = row.body;
    const h = row.header ?? {};
    const daily = m.table === 'packages';
    const package_: StoredForRerating = {
      charge: row.charge,
      declared: {
        weight: text(b.PackageWeight),
        weightUnit: text(daily ? b.WeightUnit : b.PackageWeightUnit),
        length: text(b.PackageSizeLength),
        width: text(b.PackageSizeWidth),
        height: text(b.PackageSizeHeight),
      },
      lane: {
        fromPostal: text(daily ? b.FromPostalCode : h.FromPostalCode),
        toPostal: text(b.ToPostalCode),
        originAirport: text(h.OriginAirport),
        destinationAirport: text(h.DestinationAirport),
      },
    };
    const rerated = rerate({ cards, stored: package_, measured: m.measured, scanId: m.scanId, now });
    if (!rerated) return;
    // A second measurement of the same package in this batch compares with this one.
    row.charge = rerated.charge;
    out.set(index, rerated);
  });
  if (out.size === 0) return out;
  const adjusted = [...out.entries()].map(([index, r]) => ({ m: measurements[index] as Measurement, r }));
  const column = <T>(pick: (a: (typeof adjusted)[number]) => T) => adjusted.map(pick);
  // The ledger's lines (the package's identity copied from its charge row), then each package's charge as it is now.
  await execute(
    client,
    sql`INSERT INTO billing_entries (account_id, environment, kind, package_id, container_package_id, manifest_id, tracking_number,
                                     carrier_barcode, service, amount, currency, occurred_at, detail, scan_id)
        SELECT c.account_id, c.environment, 'adjustment', c.package_id, c.container_package_id, c.manifest_id, c.tracking_number,
               c.carrier_barcode, c.service, a.amount, c.currency, now(), a.detail, a.scan_id
        FROM unnest(${column((a) => a.m.table)}::text[], ${column((a) => a.m.id)}::bigint[], ${column((a) => a.r.adjustment.amount)}::numeric[],
                    ${column((a) => JSON.stringify({ ...a.r.adjustment, measured: a.m.measured }))}::jsonb[], ${column((a) => a.m.scanId)}::text[])
             WITH ORDINALITY AS a(tbl, id, amount, detail, scan_id, n)
        JOIN billing_entries c ON c.kind = 'charge'
         AND ((a.tbl = 'packages' AND c.package_id = a.id) OR (a.tbl = 'container_packages' AND c.container_package_id = a.id))
        ORDER BY a.n
        ON CONFLICT (environment, scan_id) WHERE scan_id IS NOT NULL DO NOTHING`,
  );
  const last = new Map(adjusted.map((a) => [`${a.m.table}:${a.m.id}`, a]));
  for (const table of ['packages', 'container_packages'] as const) {
    const updates = [...last.values()].filter((a) => a.m.table === table);
    if (updates.length === 0) continue;
    await execute(
      client,
      sql`UPDATE ${sql.id(table)} AS t SET charge = u.charge
          FROM unnest(${updates.map((a) => a.m.id)}::bigint[], ${updates.map((a) => JSON.stringify(a.r.charge))}::jsonb[]) AS u(id, charge)
          WHERE t.id = u.id`,
    );
  }
  return out;
}
