import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { PACKAGE_STATUSES, type PackageStatus } from '@/lib/status/transitions';
import { windowStart } from './dashboard';

// Read from each daily manifest's status counters (lib/sharded-counters.ts) and each container's packages (5,000 at
// most): never one row per package, which is too slow at a million packages.
export async function countPackagesByStatus(options: {
  accountId: string;
  environment: Environment;
}): Promise<Record<PackageStatus, number>> {
  const { accountId, environment } = options;
  const start = windowStart();
  const rows = await queryRows(
    pgPool(),
    sql<{ status: string; n: string }>`SELECT s.status,
            coalesce((SELECT sum(c.packages) FROM daily_manifests d
              JOIN daily_manifest_counts c ON c.manifest_id = d.id AND c.status = s.status
              WHERE d.account_id = ${accountId}::uuid AND d.environment = ${environment}::"Environment"
                AND d.created_at >= ${start}), 0)
          + (SELECT count(*) FROM container_packages c
              WHERE c.account_id = ${accountId}::uuid AND c.environment = ${environment}::"Environment" AND c.status = s.status
                AND c.created_at >= ${start}) AS n
     FROM unnest(${[...PACKAGE_STATUSES]}::text[]) AS s(status)`,
  );
  const counts: Record<PackageStatus, number> = {
    manifested: 0,
    received: 0,
    in_transit: 0,
    out_for_delivery: 0,
    delivered: 0,
    exception: 0,
    cancelled: 0,
  };
  for (const row of rows) {
    const status = PACKAGE_STATUSES.find((s) => s === row.status);
    if (status) counts[status] = Number(row.n);
  }
  return counts;
}
