import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { PACKAGE_STATUSES, type PackageStatus } from '@/lib/lifecycle/transitions';
import { DASHBOARD_DAYS } from './dashboard';

/**
 * Packages of both kinds (containers' and daily manifests') received in the dashboard's window, by status.
 * One range per status and table on the (account_id, environment, status, created_at, id) indexes: index-only
 * scans of the window's rows, never the account's whole history.
 */
export async function countPackagesByStatus(options: { accountId: string; environment: Environment }): Promise<Record<PackageStatus, number>> {
  const { accountId, environment } = options;
  const rows = await queryRows(
    pgPool(),
    sql<{ status: string; n: string }>`SELECT s.status,
            (SELECT count(*) FROM packages p
              WHERE p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND p.status = s.status
                AND p.created_at >= now() - make_interval(days => ${DASHBOARD_DAYS}::int))
          + (SELECT count(*) FROM container_packages c
              WHERE c.account_id = ${accountId}::uuid AND c.environment = ${environment}::"Environment" AND c.status = s.status
                AND c.created_at >= now() - make_interval(days => ${DASHBOARD_DAYS}::int)) AS n
     FROM unnest(${[...PACKAGE_STATUSES]}::text[]) AS s(status)`,
  );
  const counts: Record<PackageStatus, number> = { manifested: 0, received: 0, in_transit: 0, out_for_delivery: 0, delivered: 0, exception: 0, cancelled: 0 };
  for (const row of rows) {
    const status = PACKAGE_STATUSES.find((s) => s === row.status);
    if (status) counts[status] = Number(row.n);
  }
  return counts;
}
