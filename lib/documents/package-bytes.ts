import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { execute, sql } from '@/lib/sql';
import type { ManifestKind } from './types';

// A manifest's packages as UTF-8 JSON bytes built by PostgreSQL and read by binary COPY, never decoded on the way
// (docs/decisions/document-rendering.md). Read by the render thread on its own connection, or by the serving thread
// for a render on it; no server-only import, so that the render thread's bundle can hold it.

/** Which manifest's packages, as plain data: it goes to the render thread in the job's message. */
export interface PackagesQuery {
  kind: ManifestKind;
  manifestId: string;
  /** Each row's house waybill as a fourth element (customs-declaration.ts); then its charge's three. */
  houseWaybills: boolean;
}

/** A package's charge as the handover's totals read it (lib/billing/pricing.ts): status, amount, currency. */
const CHARGE = sql`charge->>'status', charge->>'amount', charge->>'currency'`;

/**
 * `[[data, status, carrier_barcode, house_waybill, charge…], …]` in the manifest's order, in a buffer of its own (never
 * a slice of Node's shared pool, so that it can be transferred). Runs inside the caller's transaction: COPY takes no
 * parameters, so the id goes in through a transaction-local setting.
 */
export async function readPackageBytes(client: pg.ClientBase, query: PackagesQuery): Promise<Uint8Array> {
  const copy =
    query.kind === 'container'
      ? query.houseWaybills
        ? sql`COPY (SELECT coalesce(json_agg(json_build_array(detail, status, carrier_barcode, house_waybill, ${CHARGE}) ORDER BY position), '[]')
                  FROM container_packages WHERE manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`
        : sql`COPY (SELECT coalesce(json_agg(json_build_array(detail, status, carrier_barcode, NULL, ${CHARGE}) ORDER BY position), '[]')
                  FROM container_packages WHERE manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`
      : query.houseWaybills
        ? sql`COPY (SELECT coalesce(json_agg(json_build_array(data, status, carrier_barcode, house_waybill, ${CHARGE}) ORDER BY id), '[]')
                  FROM packages WHERE daily_manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`
        : sql`COPY (SELECT coalesce(json_agg(json_build_array(data, status, carrier_barcode, NULL, ${CHARGE}) ORDER BY id), '[]')
                  FROM packages WHERE daily_manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`;
  await execute(client, sql`SELECT set_config('carrier.document_manifest', ${query.manifestId}, true)`);
  const chunks: Buffer[] = [];
  // COPY … TO has no helper in lib/sql.ts; the text is a sql`` template's, without parameters.
  // eslint-disable-next-line no-restricted-syntax
  for await (const chunk of client.query(copyTo(copy.toQuery().text)) as AsyncIterable<Buffer>) chunks.push(chunk);
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return copyField(all);
}

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

/** The one field of the one row of a binary COPY (PostgreSQL's "Binary Format" of COPY), as a view of `copy`. */
export function copyField(copy: Uint8Array): Uint8Array {
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  if (copy.length < 19 || SIGNATURE.some((byte, i) => copy[i] !== byte)) throw new Error('COPY: not the binary format');
  const start = 19 + view.getInt32(15); // signature, flags, header extension's length, the extension
  if (view.getInt16(start) !== 1) throw new Error('COPY: expected one row of one field');
  const length = view.getInt32(start + 2);
  if (length < 0 || start + 6 + length > copy.length) throw new Error('COPY: a field out of bounds');
  return copy.subarray(start + 6, start + 6 + length);
}

/**
 * A reader on one connection of its own, opened on first use and kept (the render thread's: its thread ends when idle,
 * and the connection with it). A connection that fails is dropped; the next read opens another, so a database that
 * came back (a failover) is reached again. One read at a time: the thread renders one job at a time.
 */
export function connectionReader(connectionString: string): (query: PackagesQuery) => Promise<Uint8Array> {
  let open: Promise<pg.Client> | undefined;
  const drop = (client?: pg.Client) => {
    open = undefined;
    void client?.end().catch(() => undefined);
  };
  return async (query) => {
    const connecting = (open ??= (async () => {
      const client = new pg.Client({
        connectionString,
        application_name: 'carrier document render',
        connectionTimeoutMillis: 5_000,
      });
      // A connection that breaks while idle must not end the thread: the next read opens another.
      client.on('error', () => {
        if (open === connecting) drop(client);
      });
      try {
        await client.connect();
      } catch (error) {
        drop(client);
        throw error;
      }
      return client;
    })());
    const client = await connecting;
    try {
      await execute(client, sql`BEGIN READ ONLY`);
      const bytes = await readPackageBytes(client, query);
      await execute(client, sql`COMMIT`);
      return bytes;
    } catch (error) {
      // Its state is not known (a COPY cut off, a transaction left open): never reused.
      if (open === connecting) drop(client);
      throw error;
    }
  };
}
