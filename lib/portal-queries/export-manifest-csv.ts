import 'server-only';
import { db, pgPool } from '@/lib/db';
import { csvCell } from './csv';
import { CONTAINER_PACKAGE_COLUMNS, DAILY_PACKAGE_COLUMNS } from './get-manifest';
import type { PortalScope } from './scope';

/** Rows per query: one keyset range scan each, so that memory holds one batch, never the manifest. */
const BATCH = 5_000;

/**
 * A manifest's packages as CSV (one column per schema field, formula-looking cells neutralised);
 * null when the manifest is not this account's. Streamed: a batch of rows is read (a keyset range of
 * (manifest_id, position) or (daily_manifest_id, id), each field taken out of the JSON by PostgreSQL)
 * only when the client has taken the previous one, so a 100,000-row daily manifest costs the server
 * one batch of memory and the database one range scan per batch (docs/decisions/reads-at-scale.md).
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
  const json = container ? 'detail' : 'data';
  const fields = columns.map((_, i) => `${json} ->> $${i + 5}`).join(', ');
  const text = container
    ? `SELECT position AS key, ${fields} FROM container_packages
       WHERE manifest_id = $1 AND account_id = $2::uuid AND environment = $3::"Environment" AND position > $4::bigint
       ORDER BY position LIMIT ${BATCH}`
    : `SELECT id AS key, ${fields} FROM packages
       WHERE daily_manifest_id = $1 AND account_id = $2::uuid AND environment = $3::"Environment" AND id > $4::bigint
       ORDER BY id LIMIT ${BATCH}`;
  const encoder = new TextEncoder();
  const read = (after: string) => {
    const query = pgPool().query<unknown[]>({ text, values: [id, accountId, environment, after, ...columns], rowMode: 'array' });
    // Handled here too: a batch that fails before pull() awaits it must not be an unhandled rejection
    // (pull() still sees the error and the stream errors with it).
    query.catch(() => undefined);
    return query;
  };
  // The next batch is asked for while this one is turned into CSV and sent: one batch in flight, one in hand.
  let pending: ReturnType<typeof read> | undefined = read('-1');
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`${columns.map(csvCell).join(',')}\r\n`));
      },
      async pull(controller) {
        if (!pending) return;
        const { rows } = await pending;
        const last = rows[rows.length - 1];
        pending = rows.length === BATCH && last ? read(String(last[0])) : undefined;
        let chunk = '';
        for (const row of rows) {
          for (let i = 1; i < row.length; i++) chunk += (i > 1 ? ',' : '') + csvCell(row[i]);
          chunk += '\r\n';
        }
        if (chunk) controller.enqueue(encoder.encode(chunk));
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
