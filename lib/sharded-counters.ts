import 'server-only';
import { sql, type Sql } from '@/lib/sql';

// Counters without a hot row (docs/decisions/reads-at-scale.md): a daily manifest's package counts and weights by
// status (daily_manifest_counts) and the dashboard's daily activity (activity_days) are spread over COUNTER_SHARDS
// rows per key. A write adds to one shard and a read sums them, so concurrent writes of one manifest or day do not
// wait for each other's commits on one row's lock.

/** Rows per counter key. A read sums at most this many rows per key (and status). */
export const COUNTER_SHARDS = 16;

/**
 * The shard a statement writes: its connection's backend pid modulo COUNTER_SHARDS. A connection runs one
 * statement at a time, so its own writes never queue behind each other, and a pool's connections (pids drawn
 * close together) mostly land on different shards; unlike random(), two connections keep apart for good.
 */
export const COUNTER_SHARD: Sql<never> = sql`(pg_backend_pid() % ${COUNTER_SHARDS}::int)::smallint`;

/** A daily manifest's package count (every status, cancelled too), `x` being the daily_manifests row. */
export function dailyPackageCount(manifestId: Sql<never> = sql`x.id`): Sql<never> {
  return sql`(SELECT coalesce(sum(c.packages), 0)::int FROM daily_manifest_counts c WHERE c.manifest_id = ${manifestId})`;
}
