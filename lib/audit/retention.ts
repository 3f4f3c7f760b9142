import 'server-only';
import { pgTransaction } from '@/lib/db';
import { startPeriodic } from '@/lib/jobs/periodic';
import { log } from '@/lib/log';
import { execute, sql } from '@/lib/sql';

// The audit log is kept a year (docs/decisions/audit.md). The table's trigger refuses every DELETE except in a
// transaction that set carrier.audit_retention = 'on', and even then refuses a row younger than a year: this job is
// the only code that sets it, for its own transaction only (set_config's third argument: local).

const BATCH = 5_000;

/** Deletes up to BATCH rows over a year old, oldest first; answers how many. */
export async function pruneAuditLog(): Promise<number> {
  return pgTransaction(async (client) => {
    await execute(client, sql`SELECT set_config('carrier.audit_retention', 'on', true)`);
    // The database's clock (as the trigger's): now() is the transaction's start in both.
    return execute(
      client,
      sql`DELETE FROM audit_events WHERE id = ANY(ARRAY(
            SELECT id FROM audit_events WHERE occurred_at < now() - interval '1 year' ORDER BY occurred_at LIMIT ${BATCH}))`,
    );
  });
}

/** The retention job in this process: every `intervalMs`, and at once again while a run fills its batch. */
export function startAuditRetention(intervalMs: number): { stop: () => void } {
  return startPeriodic({
    name: 'audit log retention',
    intervalMs,
    run: async () => {
      const deleted = await pruneAuditLog();
      if (deleted > 0) log.info({ deleted }, 'audit log: deleted rows older than a year');
      return deleted >= BATCH;
    },
  });
}
