import 'server-only';
import type pg from 'pg';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { Changes, lockContainers, lockDailyManifests, persist, type DailyManifestRow, type Source } from '@/lib/status/engine';
import { withDeadlockRetry } from '@/lib/status/retry';
import { queryRows, sql } from '@/lib/sql';

// Close-out (design.md "Documents and close-out"): a daily manifest is closed by its shipper
// (POST /manifests/{id}/close, the portal's "Close manifest") or at its account's cut-off hour (cutoff.ts). A closed
// manifest takes no more packages: the package insert refuses it under a row lock (lib/packages), and the next
// package for that ManifestDate opens a new daily manifest. Its packages are neither cancelled nor added to, so its
// handover document never changes (docs/decisions/lifecycle.md "Close-out").
//
// Locking: a close takes the manifest row FOR UPDATE (lockDailyManifests), which conflicts with the FOR KEY SHARE that
// each package insert and each cancel takes on it: the close waits for the inserts in flight, and an insert or a
// cancel behind it sees the manifest closed. Two closes of one manifest queue on the same lock: the second sees it
// closed and changes nothing, so manifest.closed is sent once.

export interface CloseScope {
  accountId: string;
  environment: Environment;
}

/** The API path of a manifest's handover document in its environment (what manifest.closed links to). */
export function documentPath(environment: Environment, manifestId: string): string {
  return `${environment === 'test' ? '/version-test/api/1.1' : '/api/1.1'}/manifests/${encodeURIComponent(manifestId)}/document`;
}

/** Packages per manifest, counted under the close's lock: the count a closed manifest keeps for good. */
async function countPackages(client: pg.PoolClient, ids: string[]): Promise<Map<string, number>> {
  const rows = await queryRows(
    client,
    sql<{ id: string; n: number }>`SELECT daily_manifest_id AS id, count(*)::int AS n FROM packages
     WHERE daily_manifest_id = ANY(${ids}::text[]) GROUP BY daily_manifest_id`,
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Plans the close of locked, open daily manifests and writes it (status, history row, manifest.closed). */
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

/**
 * POST /manifests/{id}/close: closes an open daily manifest. Closing a closed one is a safe retry (nothing changes,
 * no second event). A container manifest, or a cancelled daily manifest: 409 not_closable naming its type and
 * status. Another account's or environment's id: 404, as every read.
 */
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
