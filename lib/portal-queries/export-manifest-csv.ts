import 'server-only';
import { db, pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import { csvCell } from './csv';
import { csvLineSql } from './csv-sql';
import { CONTAINER_PACKAGE_COLUMNS, DAILY_PACKAGE_COLUMNS } from './get-manifest';
import type { PortalScope } from './scope';

/** Rows per query: one keyset range scan each, so that memory holds one batch, never the manifest. */
const BATCH = 5_000;

/**
 * A manifest's packages as CSV (one column per schema field, formula-looking cells neutralised);
 * null when the manifest is not this account's. Streamed: a batch of rows is read (a keyset range of
 * (manifest_id, position) or (daily_manifest_id, id)) only when the client has taken the previous one,
 * so a 100,000-row daily manifest costs the server one batch of memory and the database one range scan
 * per batch (docs/decisions/reads-at-scale.md).
 *
 * PostgreSQL writes the CSV: each row's JSON is taken apart once (jsonb_to_record), each cell is quoted
 * and neutralised by csv-sql.ts (csv.ts's rules), and a batch comes back as ONE row holding its text and
 * its last key, so Node neither parses rows nor builds strings per cell (7.5k rows/s when it did; see
 * bench/RESULTS.md "export").
 */
export async function exportManifestCsv(
  options: PortalScope & { id: string },
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> } | null> {
  const { accountId, environment, id } = options;
  const filename = `${id}-packages.csv`;
  const container = await db.containerManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  const daily = container
    ? null
    : await db.dailyManifest.findFirst({ where: { id, accountId, environment }, select: { id: true } });
  if (!container && !daily) return null;
  const columns = container ? CONTAINER_PACKAGE_COLUMNS : DAILY_PACKAGE_COLUMNS;
  const record = sql.join(columns.map((c) => sql`${sql.id(c)} text`));
  const line = csvLineSql(columns.map((c) => sql.id('r', c)));
  const batch = (after: string) =>
    container
      ? sql`SELECT position AS key, ${line} AS line
            FROM container_packages x CROSS JOIN LATERAL jsonb_to_record(x.detail) AS r(${record})
            WHERE x.manifest_id = ${id} AND x.account_id = ${accountId}::uuid AND x.environment = ${environment}::"Environment"
              AND x.position > ${after}::bigint
            ORDER BY x.position LIMIT ${BATCH}`
      : sql`SELECT x.id AS key, ${line} AS line
            FROM packages x CROSS JOIN LATERAL jsonb_to_record(x.data) AS r(${record})
            WHERE x.daily_manifest_id = ${id} AND x.account_id = ${accountId}::uuid AND x.environment = ${environment}::"Environment"
              AND x.id > ${after}::bigint
            ORDER BY x.id LIMIT ${BATCH}`;
  const read = (after: string) => {
    const query = queryRow(
      pgPool(),
      sql<{ rows: number; last: string | null; text: string | null }>`SELECT count(*)::int AS rows, max(b.key)::text AS last, string_agg(b.line, '' ORDER BY b.key) AS text
        FROM (${batch(after)}) AS b`,
    );
    // Handled here too: a batch that fails before pull() awaits it must not be an unhandled rejection
    // (pull() still sees the error and the stream errors with it).
    query.catch(() => undefined);
    return query;
  };
  const encoder = new TextEncoder();
  // The next batch is asked for while this one is sent: one batch in flight, one in hand.
  let pending: ReturnType<typeof read> | undefined = read('-1');
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`${columns.map(csvCell).join(',')}\r\n`));
      },
      async pull(controller) {
        if (!pending) return;
        const result = await pending;
        const rows = result?.rows ?? 0;
        pending = rows === BATCH && result?.last ? read(result.last) : undefined;
        if (result?.text) controller.enqueue(encoder.encode(result.text));
        if (!pending) controller.close();
      },
      cancel() {
        // The client went away: the batch in flight is let go (its rows are dropped).
        pending = undefined;
      },
    },
    { highWaterMark: 1 },
  );
  return { filename, stream };
}
