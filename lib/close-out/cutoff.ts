import 'server-only';
import { recordAudit, SYSTEM_ORIGIN, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgPool, pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { DailyManifestRow } from '@/lib/status/engine';
import { withDeadlockRetry } from '@/lib/status/retry';
import { queryRow, queryRows, sql } from '@/lib/sql';
import { closeLocked } from './close-manifest';

// An account's setting per environment (an hour and an IANA zone; none: no automatic close) closes each open daily
// manifest once cutoff_hour:00 of its ManifestDate in that zone has passed.

export interface CloseOutSettings {
  cutoff_hour: number | null;
  time_zone: string;
}

export const DEFAULT_CLOSE_OUT: CloseOutSettings = { cutoff_hour: null, time_zone: 'UTC' };

interface Scope {
  accountId: string;
  environment: Environment;
}

export async function getCloseOutSettings(scope: Scope): Promise<CloseOutSettings> {
  const row = await queryRow(
    pgPool(),
    sql<{ cutoff_hour: number | null; time_zone: string }>`SELECT cutoff_hour, time_zone FROM close_out_settings
     WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"`,
  );
  return row ? { cutoff_hour: row.cutoff_hour, time_zone: row.time_zone } : { ...DEFAULT_CLOSE_OUT };
}

// PostgreSQL computes the cut-off, so it must know the zone.
export async function isKnownTimeZone(name: string): Promise<boolean> {
  const row = await queryRow(
    pgPool(),
    sql<{ known: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${name}) AS known`,
  );
  return row?.known === true;
}

export async function setCloseOutSettings(
  scope: Scope & { origin: AuditOrigin },
  settings: CloseOutSettings,
): Promise<CloseOutSettings> {
  return pgTransaction(async (client) => {
    const before = await queryRow(
      client,
      sql<{ cutoff_hour: number | null; time_zone: string }>`SELECT cutoff_hour, time_zone FROM close_out_settings
       WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" FOR UPDATE`,
    );
    const row = await queryRow(
      client,
      sql<{ cutoff_hour: number | null; time_zone: string }>`
       INSERT INTO close_out_settings (account_id, environment, cutoff_hour, time_zone, updated_at)
       VALUES (${scope.accountId}::uuid, ${scope.environment}::"Environment", ${settings.cutoff_hour}::int, ${settings.time_zone}, now())
       ON CONFLICT (account_id, environment) DO UPDATE SET cutoff_hour = EXCLUDED.cutoff_hour, time_zone = EXCLUDED.time_zone, updated_at = now()
       RETURNING cutoff_hour, time_zone`,
    );
    const after = row ? { cutoff_hour: row.cutoff_hour, time_zone: row.time_zone } : settings;
    const was = before ?? DEFAULT_CLOSE_OUT;
    // A save that changes nothing is not an event.
    if (was.cutoff_hour !== after.cutoff_hour || was.time_zone !== after.time_zone) {
      await recordAudit(
        scope.origin,
        {
          accountId: scope.accountId,
          environment: scope.environment,
          action: 'settings.updated',
          target: { type: 'settings', id: 'close_out' },
          details: {
            cutoff_hour_before: was.cutoff_hour,
            cutoff_hour: after.cutoff_hour,
            time_zone_before: was.time_zone,
            time_zone: after.time_zone,
          },
        },
        client,
      );
    }
    return after;
  });
}

export interface ClosedByCutoff {
  manifestId: string;
  accountId: string;
  environment: Environment;
}

// Every app process runs this, any number at once: due rows are locked in id order and re-checked after any wait (READ
// COMMITTED re-evaluates the WHERE), so each manifest is closed and announced exactly once.
export async function closeDueManifests(options: { now: Date; limit?: number }): Promise<ClosedByCutoff[]> {
  const limit = options.limit ?? 200;
  return withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const due = await queryRows(
        client,
        sql<{ id: string; account_id: string; environment: Environment; status: string; status_updated_at: Date }>`
         SELECT d.id, d.account_id, d.environment, d.status, d.status_updated_at
         FROM daily_manifests d
         JOIN close_out_settings s ON s.account_id = d.account_id AND s.environment = d.environment
         WHERE s.cutoff_hour IS NOT NULL AND d.status = 'manifested'
           AND ((d.manifest_date + make_interval(hours => s.cutoff_hour)) AT TIME ZONE s.time_zone) <= ${options.now}::timestamptz
         ORDER BY d.id
         LIMIT ${limit}
         FOR UPDATE OF d`,
      );
      const rows: DailyManifestRow[] = due.map((r) => ({
        id: r.id,
        accountId: r.account_id,
        environment: r.environment,
        status: r.status,
        statusUpdatedAt: r.status_updated_at,
      }));
      await closeLocked(client, rows, { occurredAt: options.now, source: 'cutoff' });
      for (const row of rows) {
        await recordAudit(
          SYSTEM_ORIGIN,
          {
            accountId: row.accountId,
            environment: row.environment,
            action: 'manifest.closed',
            target: { type: 'manifest', id: row.id },
            details: { by: 'cut-off' },
          },
          client,
        );
      }
      return rows.map((r) => ({ manifestId: r.id, accountId: r.accountId, environment: r.environment }));
    }),
  );
}
