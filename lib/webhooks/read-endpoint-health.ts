import 'server-only';
import { pgPool } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { WEBHOOK_FAILURE_STREAK_CAP } from '@/lib/schemas/portal-responses';
import { queryRows, sql } from '@/lib/sql';

export interface EndpointHealth {
  endpointId: string;
  lastAttemptAt: Date | null;
  lastSuccess: boolean | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** Failed attempts since the last success (or since the first attempt), at most WEBHOOK_FAILURE_STREAK_CAP. */
  failureStreak: number;
  failingSince: Date | null;
}

/** Two short index walks per endpoint, whatever the log's size. */
export async function readEndpointHealth(options: { accountId: string; environment: Environment }): Promise<EndpointHealth[]> {
  const rows = await queryRows(
    pgPool(),
    sql<{
      endpoint_id: string;
      attempted_at: Date | null;
      success: boolean | null;
      status_code: number | null;
      error: string | null;
      streak: number;
      failing_since: Date | null;
    }>`SELECT e.id AS endpoint_id, last.attempted_at, last.success, last.status_code, last.error, e.failing_since,
        (SELECT count(*)::int FROM (
           SELECT 1 FROM webhook_attempts f
           WHERE f.endpoint_id = e.id AND f.success = false
             AND f.id > coalesce((SELECT max(s.id) FROM webhook_attempts s WHERE s.endpoint_id = e.id AND s.success), 0)
           LIMIT ${WEBHOOK_FAILURE_STREAK_CAP}::int) streak) AS streak
      FROM webhook_endpoints e
      LEFT JOIN LATERAL (
        SELECT a.attempted_at, a.success, a.status_code, a.error FROM webhook_attempts a
        WHERE a.endpoint_id = e.id ORDER BY a.id DESC LIMIT 1
      ) last ON true
      WHERE e.account_id = ${options.accountId}::uuid AND e.environment = ${options.environment}::"Environment"`,
  );
  return rows.map((r) => ({
    endpointId: r.endpoint_id,
    lastAttemptAt: r.attempted_at,
    lastSuccess: r.success,
    lastStatusCode: r.status_code,
    lastError: r.error,
    failureStreak: Number(r.streak),
    failingSince: r.failing_since,
  }));
}
