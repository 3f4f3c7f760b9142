import 'server-only';
import type pg from 'pg';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { Changes, lockContainers, lockDailyManifests, persist, type DailyManifestRow, type Source } from '@/lib/status/engine';
import { withDeadlockRetry } from '@/lib/status/retry';
import { queryRows, sql } from '@/lib/sql';

// A closed manifest takes no more packages, so its handover document never changes (docs/decisions/lifecycle.md).
// The close's FOR UPDATE conflicts with each insert's and cancel's FOR KEY SHARE, and a second close changes nothing.

export interface CloseScope {
  accountId: string;
  environment: Environment;
}

export function documentPath(environment: Environment, manifestId: string): string {
  return `${environment === 'test' ? '/version-test/api/1.1' : '/api/1.1'}/manifests/${encodeURIComponent(manifestId)}/document`;
}

// Counted under the close's lock: the count a closed manifest keeps for good.
async function countPackages(client: pg.PoolClient, ids: string[]): Promise<Map<string, number>> {
  const rows = await queryRows(
    client,
    sql<{ id: string; n: number }>`SELECT daily_manifest_id AS id, count(*)::int AS n FROM packages
     WHERE daily_manifest_id = ANY(${ids}::text[]) GROUP BY daily_manifest_id`,
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function closeLocked(
  client: pg.PoolClient,
  rows: DailyManifestRow[],
  stamp: { occurredAt: Date; source: Source },
): Promise<void> {
  if (rows.length === 0) return;
  const counts = await countPackages(
    client,
    rows.map((r) => r.id),
  );
  const changes = new Changes();
  for (const row of rows) {
    changes.closeDaily(
      row,
      { occurredAt: stamp.occurredAt, location: null, source: stamp.source },
      {
        package_count: counts.get(row.id) ?? 0,
        document_path: documentPath(row.environment, row.id),
        closed_by: stamp.source === 'cutoff' ? 'cutoff' : 'shipper',
      },
    );
  }
  await persist(client, changes);
}

function notClosable(message: string, extra: Record<string, unknown>): AppError {
  return new AppError('not_closable', message, { extra });
}

// Closing a closed one is a safe retry: nothing changes, no second event.
export async function closeManifest(
  options: CloseScope & { manifestId: string; now?: Date; origin: AuditOrigin },
): Promise<void> {
  await withDeadlockRetry(() =>
    pgTransaction(async (client) => {
      const [container] = await lockContainers(client, options, { manifestIds: [options.manifestId] });
      if (container) {
        throw notClosable(
          `Manifest ${container.id} is a container manifest (${container.containerId}, ${container.status}); only a daily manifest is closed. A container closes when the carrier's scans say so.`,
          { type: 'container', current_status: container.status },
        );
      }
      const [daily] = await lockDailyManifests(client, options, [options.manifestId]);
      if (!daily) throw new AppError('not_found', `No manifest ${options.manifestId} in this account and environment.`);
      if (daily.status === 'closed') return;
      if (daily.status !== 'manifested') {
        throw notClosable(`Manifest ${daily.id} is ${daily.status}; only an open daily manifest can be closed.`, {
          type: 'daily',
          current_status: daily.status,
        });
      }
      await closeLocked(client, [daily], { occurredAt: options.now ?? new Date(), source: 'api' });
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          environment: options.environment,
          action: 'manifest.closed',
          target: { type: 'manifest', id: daily.id },
          details: { by: 'hand' },
        },
        client,
      );
    }),
  );
}
