import 'server-only';
import { pgPool, pgTransaction } from '@/lib/db';
import { log } from '@/lib/log';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { RENDER_VERSION } from './render-request';

// Closed daily manifests' documents, rendered once and kept in PostgreSQL (docs/decisions/document-rendering.md): a
// closed manifest never changes. They go with the manifest (ON DELETE CASCADE): labels carry names and addresses.

export interface DocumentKey {
  manifestId: string;
  document: 'handover' | 'tag' | 'labels' | 'customs';
  format: 'pdf' | 'zpl';
  paper: string;
}

/** Rows of at most this many bytes: a read decodes one part at a time (bytea arrives as hex text), never a whole 5 MB document. */
const PART_BYTES = 2 ** 20;
/** A larger document is rendered every time rather than kept. */
const MAX_BYTES = 64 * 2 ** 20;
/** Kept this long after it was written; then rendered again if asked for. */
export const DOCUMENT_CACHE_DAYS = 30;
const RETENTION_EVERY_MS = 3_600_000;
let retentionAt = 0;

const where = (key: DocumentKey) =>
  sql`manifest_id = ${key.manifestId} AND document = ${key.document} AND format = ${key.format} AND paper = ${key.paper} AND version = ${RENDER_VERSION}`;

export async function cachedDocument(key: DocumentKey): Promise<Uint8Array | undefined> {
  const rows = await queryRows(
    pgPool(),
    sql<{ parts: number; bytes: Buffer }>`SELECT parts, bytes FROM document_cache WHERE ${where(key)} ORDER BY part`,
  );
  const first = rows[0];
  if (!first || rows.length !== first.parts) return undefined;
  return rows.length === 1 ? first.bytes : Buffer.concat(rows.map((row) => row.bytes));
}

/** In one transaction, so a reader sees all parts or none; of two concurrent renders, the first to commit is kept. */
export async function keepDocument(key: DocumentKey, bytes: Uint8Array): Promise<void> {
  if (bytes.byteLength > MAX_BYTES) return;
  const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts = Math.max(1, Math.ceil(all.length / PART_BYTES));
  const insert = (part: number) =>
    sql`INSERT INTO document_cache (manifest_id, document, format, paper, version, part, parts, bytes)
        VALUES (${key.manifestId}, ${key.document}, ${key.format}, ${key.paper}, ${RENDER_VERSION}, ${part}, ${parts}, ${all.subarray(part * PART_BYTES, (part + 1) * PART_BYTES)})
        ON CONFLICT DO NOTHING RETURNING part`;
  await pgTransaction(async (client) => {
    if (!(await queryRow(client, insert(0)))) return;
    for (let part = 1; part < parts; part += 1) await queryRow(client, insert(part));
  });
  if (Date.now() - retentionAt > RETENTION_EVERY_MS) {
    retentionAt = Date.now();
    // A document's parts share their created_at (the transaction's now()): they go together.
    void execute(
      pgPool(),
      sql`DELETE FROM document_cache WHERE created_at < now() - make_interval(days => ${DOCUMENT_CACHE_DAYS})`,
    ).catch((error: unknown) => log.warn({ err: error }, 'document cache: old documents not deleted'));
  }
}
