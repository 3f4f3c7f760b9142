import 'server-only';
import { pgTransaction } from '@/lib/db';
import { execute, queryRows, sql, type Sql } from '@/lib/sql';

/**
 * One batch of a keyset export (`… WHERE key > $after ORDER BY key LIMIT n`, n in the thousands), read in the order
 * of the index that serves its filter. The planner estimates a manifest's or a filter's rows from the table's
 * statistics (a few hundred to a few thousand), so for a big set it would rather collect every remaining row and
 * sort them, for each batch: 340 ms a batch at 100,000 packages, an export slowing as it went (bench/RESULTS.md,
 * 10 M packages). With sorting off for this one statement (SET LOCAL, in its own short transaction) the ordered
 * index scan is chosen and each batch costs its own rows (7 ms); a statement with no ordered path still sorts.
 */
export function queryRowsInIndexOrder<Row>(statement: Sql<Row>): Promise<Row[]> {
  return pgTransaction(async (client) => {
    await execute(client, sql`SET LOCAL enable_sort = off`);
    return queryRows(client, statement);
  });
}
