import 'server-only';
import { sql, type Sql } from '@/lib/sql';

// Counters without a hot row (docs/decisions/reads-at-scale.md): each key is spread over COUNTER_SHARDS rows, so
// concurrent writes of one manifest or day do not wait on one row's lock; a read sums the shards.

export const COUNTER_SHARDS = 16;

/** By backend pid: a connection's own writes never queue behind each other, and pool connections mostly spread out. */
export const COUNTER_SHARD: Sql<never> = sql`(pg_backend_pid() % ${COUNTER_SHARDS}::int)::smallint`;

/** A daily manifest's package count (every status, cancelled too), `x` being the daily_manifests row. */
export function dailyPackageCount(manifestId: Sql<never> = sql`x.id`): Sql<never> {
  return sql`(SELECT coalesce(sum(c.packages), 0)::int FROM daily_manifest_counts c WHERE c.manifest_id = ${manifestId})`;
}
