import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { connectRidingOut, isDatabaseUnavailable, noteDatabaseError } from '@/lib/db-errors';
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
  if (query.kind !== 'container' && query.kind !== 'daily')
    throw new Error(`no packages of a manifest of kind ${String(query.kind)}`);
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

export interface ReaderOptions {
  /** A kept connection idle this long is closed (as the pool closes its idle ones): a link cut meanwhile is never reused. */
  idleCloseMs?: number;
  connectTimeoutMs?: number;
  /** What PostgreSQL's pg_stat_activity shows for it. */
  applicationName?: string;
}

/**
 * A reader on one connection of its own, opened on first use (riding out a planned primary change like the pool's,
 * lib/db-errors.ts) and kept while reads follow one another (the render thread's: one read at a time). A connection
 * that fails is dropped, and one idle for `idleCloseMs` closed; the next read opens another, so a database that came
 * back (a failover) is reached again.
 */
export function connectionReader(
  connectionString: string,
  { idleCloseMs = 10_000, connectTimeoutMs = 5_000, applicationName = 'carrier document render' }: ReaderOptions = {},
): (query: PackagesQuery) => Promise<Uint8Array> {
  let open: Promise<pg.Client> | undefined;
  /** The connection `open` gave, once connected. */
  let current: pg.Client | undefined;
  let idle: NodeJS.Timeout | undefined;
  const drop = (client: pg.Client) => {
    if (current === client) {
      current = undefined;
      open = undefined;
    }
    void client.end().catch(() => undefined);
  };
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({
      connectionString,
      application_name: applicationName,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
    });
    // A connection that breaks while idle must not end the thread: the next read opens another.
    client.on('error', (error) => {
      noteDatabaseError(error);
      drop(client);
    });
    try {
      await client.connect();
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    current = client;
    return client;
  };
  const read = async (query: PackagesQuery, retry: boolean): Promise<Uint8Array> => {
    clearTimeout(idle);
    const kept = open !== undefined;
    const connecting = (open ??= connectRidingOut(connect));
    let client: pg.Client;
    try {
      client = await connecting;
    } catch (error) {
      if (open === connecting) open = undefined;
      // A bare client's connect timeout carries no code: say what it is, so that it is answered as an outage (503).
      if (error instanceof Error && /^timeout expired$/i.test(error.message))
        throw Object.assign(new Error('Connection terminated due to connection timeout', { cause: error }), { code: '08001' });
      throw error;
    }
    try {
      await execute(client, sql`BEGIN READ ONLY`);
      const bytes = await readPackageBytes(client, query);
      await execute(client, sql`COMMIT`);
      idle = setTimeout(() => drop(client), idleCloseMs);
      idle.unref();
      return bytes;
    } catch (error) {
      noteDatabaseError(error);
      // Its state is not known (a COPY cut off, a transaction left open): never reused.
      drop(client);
      // A kept connection the database ended while it was idle, its word not yet read: once more on a new one (a read
      // changes nothing, so reading again is safe).
      if (retry && kept && isDatabaseUnavailable(error)) return read(query, false);
      throw error;
    }
  };
  return (query) => read(query, true);
}
