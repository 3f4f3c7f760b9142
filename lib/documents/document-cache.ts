import 'server-only';
import { pgPool, pgTransaction } from '@/lib/db';
import { log } from '@/lib/log';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { RENDER_VERSION } from './render-job';

// Closed daily manifests' documents, rendered once and served again as they were (docs/decisions/document-rendering.md):
// a closed manifest never changes, and its documents are dated by the close (load-documents.ts), so the bytes of a
// second render would be the same. Kept in PostgreSQL (table document_cache), so that every process and every
// instance serves what one of them rendered, and a manifest's documents go with it (ON DELETE CASCADE, an account's
// deletion too: labels carry names and addresses). Open and cancelled manifests' documents are never kept.

export interface DocumentKey {
  manifestId: string;
  document: 'handover' | 'tag' | 'labels' | 'customs';
  format: 'pdf' | 'zpl';
  /** The handover's paper size; '' for the others. */
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

/** The kept document's bytes, or undefined when none is kept (or not whole). */
export async function cachedDocument(key: DocumentKey): Promise<Uint8Array | undefined> {
  const rows = await queryRows(
    pgPool(),
    sql<{ parts: number; bytes: Buffer }>`SELECT parts, bytes FROM document_cache WHERE ${where(key)} ORDER BY part`,
  );
  const first = rows[0];
  if (!first || rows.length !== first.parts) return undefined;
  return rows.length === 1 ? first.bytes : Buffer.concat(rows.map((row) => row.bytes));
}

/**
 * Keeps a closed manifest's document. In one transaction, so a reader sees all of its parts or none; the first of two
 * concurrent renders to commit is the one kept (the other's part 0 conflicts, and it writes nothing).
 */
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
