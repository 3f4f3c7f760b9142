import 'server-only';
import { pgPool } from '@/lib/db';
import { startPeriodic } from '@/lib/jobs/periodic';
import { log } from '@/lib/log';
import { execute, sql } from '@/lib/sql';

export const REQUEST_LOG_RETENTION_DAYS = 30;
const BATCH = 5_000;

// A batch at a time, so that a backlog never holds one long transaction.
export async function pruneRequestLog(): Promise<number> {
  // The database's clock, not this process's: every process's lines are judged by one clock.
  return execute(
    pgPool(),
    sql`DELETE FROM request_logs WHERE ctid = ANY(ARRAY(
          SELECT ctid FROM request_logs WHERE created_at < now() - make_interval(days => ${REQUEST_LOG_RETENTION_DAYS}) LIMIT ${BATCH}))`,
  );
}

export function startRequestLogRetention(intervalMs: number): { stop: () => void } {
  return startPeriodic({
    name: 'request log retention',
    intervalMs,
    run: async () => {
      const deleted = await pruneRequestLog();
      if (deleted > 0) log.info({ deleted }, 'request log: deleted requests older than 30 days');
      return deleted >= BATCH;
    },
  });
}
