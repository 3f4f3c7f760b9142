import 'server-only';
import { db, lagTolerantPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';

// Rollups may lag a little: they come from a replica when there is one, from the primary after the account's own write.

export const DASHBOARD_DAYS = 30;

/** The first instant of the window: midnight UTC, DASHBOARD_DAYS - 1 days before today, as the chart's first bar. */
export function windowStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (DASHBOARD_DAYS - 1)));
}

export interface DailyCount {
  day: string;
  packages: number;
  manifests: number;
}

// A range of the activity_days rollup's primary key (docs/decisions/reads-at-scale.md), whatever the volume behind it.
async function dailyActivity(accountId: string, environment: Environment): Promise<DailyCount[]> {
  const rows = await queryRows(
    lagTolerantPool(accountId),
    sql<{ day: string; packages: number; manifests: number }>`
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(a.packages, 0)::int AS packages, coalesce(a.manifests, 0)::int AS manifests
    FROM (
      SELECT generate_series((now() AT TIME ZONE 'UTC')::date - ${DASHBOARD_DAYS - 1}::int, (now() AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
    ) days
    LEFT JOIN (
      SELECT day, sum(packages) AS packages, sum(container_manifests) AS manifests FROM activity_days
      WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
        AND day >= (now() AT TIME ZONE 'UTC')::date - ${DASHBOARD_DAYS - 1}::int
      GROUP BY day
    ) a ON a.day = days.day
    ORDER BY days.day`,
  );
  return rows.map((r) => ({ day: r.day, packages: Number(r.packages), manifests: Number(r.manifests) }));
}

// The rollup counts daily packages only; a container's packages are its package_count, on the day it was received
// (the headline, lib/portal/package-status-counts.ts, counts both over the same days).
async function containerPackagesByDay(accountId: string, environment: Environment): Promise<Map<string, number>> {
  const rows = await queryRows(
    lagTolerantPool(accountId),
    sql<{ day: string; packages: string }>`
    SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, sum(package_count) AS packages
    FROM container_manifests
    WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
      AND created_at >= ${windowStart()}
    GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.day, Number(r.packages)]));
}

async function webhookStats(accountId: string, environment: Environment) {
  const row = await queryRow(
    lagTolerantPool(accountId),
    sql<{ attempts: string | null; succeeded: string | null }>`
    SELECT sum(webhook_attempts) AS attempts, sum(webhook_successes) AS succeeded FROM activity_days
    WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"
      AND day >= (now() AT TIME ZONE 'UTC')::date - ${DASHBOARD_DAYS - 1}::int`,
  );
  const attempts = Number(row?.attempts ?? 0);
  const succeeded = Number(row?.succeeded ?? 0);
  return { attempts, succeeded, successRate: attempts === 0 ? null : succeeded / attempts };
}

export interface ActivityItem {
  kind: 'container_manifest' | 'package';
  id: string;
  label: string;
  detail: string;
  createdAt: Date;
}

async function recentActivity(accountId: string, environment: Environment): Promise<ActivityItem[]> {
  const where = { accountId, environment };
  const [manifests, packages] = await Promise.all([
    db.containerManifest.findMany({
      where,
      orderBy: { createdAt: 'desc' },
      take: 8,
      select: { id: true, containerId: true, packageCount: true, serviceName: true, createdAt: true },
    }),
    db.package.findMany({
      where,
      orderBy: { createdAt: 'desc' },
      take: 8,
      select: { trackingNumber: true, carrierBarcode: true, dailyManifestId: true, serviceName: true, createdAt: true },
    }),
  ]);
  return [
    ...manifests.map((m) => ({
      kind: 'container_manifest' as const,
      id: m.id,
      label: `Container ${m.containerId}`,
      detail: `${m.id} · ${m.packageCount.toLocaleString('en-US')} package${m.packageCount === 1 ? '' : 's'} · ${m.serviceName}`,
      createdAt: m.createdAt,
    })),
    ...packages.map((p) => ({
      kind: 'package' as const,
      // Its page is found by either; a package sent without a tracking number has only the barcode.
      id: p.trackingNumber ?? p.carrierBarcode,
      label: `Package ${p.trackingNumber ?? p.carrierBarcode}`,
      detail: `${p.dailyManifestId} · ${p.serviceName}`,
      createdAt: p.createdAt,
    })),
  ]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .slice(0, 10);
}

export async function getDashboard(options: { accountId: string; environment: Environment }) {
  const { accountId, environment } = options;
  const [dailyOnly, containerPackages, webhooks, recent] = await Promise.all([
    dailyActivity(accountId, environment),
    containerPackagesByDay(accountId, environment),
    webhookStats(accountId, environment),
    recentActivity(accountId, environment),
  ]);
  const daily = dailyOnly.map((d) => ({ ...d, packages: d.packages + (containerPackages.get(d.day) ?? 0) }));
  return {
    daily,
    totals: {
      packages: daily.reduce((n, d) => n + d.packages, 0),
      manifests: daily.reduce((n, d) => n + d.manifests, 0),
    },
    webhooks,
    recent,
  };
}
