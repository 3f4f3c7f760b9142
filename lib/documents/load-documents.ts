import 'server-only';
import { to as copyTo } from 'pg-copy-streams';
import { pgPool, pgTransaction } from '@/lib/db';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import type { DocumentLabel, DocumentPickup } from './types';
import { day, documentPackage, obj, party, stateOf, type ManifestSource } from './manifest-source';

// A manifest's documents' data, scoped by account and environment (another's id is a plain 404).

export interface LoadScope {
  accountId: string;
  environment: Environment;
}

export type ManifestHead = Omit<ManifestSource, 'packages'>;

export async function loadManifestHead(options: LoadScope & { manifestId: string }): Promise<ManifestHead> {
  const { accountId, environment, manifestId } = options;
  const pool = pgPool();
  const row = await queryRow(
    pool,
    sql<{
      id: string;
      manifest_date: Date;
      service_name: string;
      awb: string | null;
      header: unknown;
      container_id: string;
      shipment_description: string;
      status: string;
    }>`
      SELECT id, manifest_date, service_name, awb, header, container_id, shipment_description, status FROM container_manifests
      WHERE id = ${manifestId} AND account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"`,
  );
  if (row) {
    return {
      kind: 'container',
      manifestId: row.id,
      state: stateOf(row.status),
      manifestDate: day(row.manifest_date),
      header: obj(row.header),
      serviceName: row.service_name,
      awb: row.awb ?? undefined,
      containerId: row.container_id,
      shipmentDescription: row.shipment_description,
      generatedAt: new Date(),
    };
  }
  const dailyRow = await queryRow(
    pool,
    sql<{ id: string; manifest_date: Date | string; status: string; status_updated_at: Date }>`
      SELECT id, manifest_date, status, status_updated_at FROM daily_manifests
      WHERE id = ${manifestId} AND account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"`,
  );
  if (!dailyRow) throw new AppError('not_found', 'No manifest with this id in this account and environment.');
  return {
    kind: 'daily',
    manifestId: dailyRow.id,
    state: stateOf(dailyRow.status, 'daily'),
    manifestDate: day(dailyRow.manifest_date),
    // A closed manifest's document is the one of its close (it never changes): dated by the close.
    generatedAt: dailyRow.status === 'closed' ? dailyRow.status_updated_at : new Date(),
  };
}

/** A package's charge as the handover's totals read it (lib/billing/pricing.ts): status, amount, currency. */
const CHARGE = sql`charge->>'status', charge->>'amount', charge->>'currency'`;

/**
 * Every package as UTF-8 JSON bytes built by PostgreSQL and read by binary COPY, never decoded on the serving
 * thread (docs/decisions/document-rendering.md). COPY takes no parameters: the id goes in through set_config.
 */
export async function loadPackages(head: ManifestHead, options: { houseWaybills?: boolean } = {}): Promise<Uint8Array> {
  // houseWaybills: each row's house waybill as a fourth element (customs-declaration.ts); then its charge's three.
  const query =
    head.kind === 'container'
      ? options.houseWaybills
        ? sql`COPY (SELECT coalesce(json_agg(json_build_array(detail, status, carrier_barcode, house_waybill, ${CHARGE}) ORDER BY position), '[]')
                  FROM container_packages WHERE manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`
        : sql`COPY (SELECT coalesce(json_agg(json_build_array(detail, status, carrier_barcode, NULL, ${CHARGE}) ORDER BY position), '[]')
                  FROM container_packages WHERE manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`
      : options.houseWaybills
        ? sql`COPY (SELECT coalesce(json_agg(json_build_array(data, status, carrier_barcode, house_waybill, ${CHARGE}) ORDER BY id), '[]')
                  FROM packages WHERE daily_manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`
        : sql`COPY (SELECT coalesce(json_agg(json_build_array(data, status, carrier_barcode, NULL, ${CHARGE}) ORDER BY id), '[]')
                  FROM packages WHERE daily_manifest_id = current_setting('carrier.document_manifest')) TO STDOUT (FORMAT binary)`;
  const chunks = await pgTransaction(async (client) => {
    await execute(client, sql`SELECT set_config('carrier.document_manifest', ${head.manifestId}, true)`);
    const received: Buffer[] = [];
    // COPY … TO has no helper in lib/sql.ts; the text is a sql`` template's, without parameters.
    // eslint-disable-next-line no-restricted-syntax
    for await (const chunk of client.query(copyTo(query.toQuery().text)) as AsyncIterable<Buffer>) received.push(chunk);
    return received;
  });
  // One buffer of its own (never a slice of Node's shared pool): it is transferred to the render thread as it is.
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

const labelState = (status: string): Pick<DocumentLabel, 'state'> => (status === 'cancelled' ? { state: 'cancelled' } : {});

/** A package as its documents read it: its own data, its manifest's header and master ids. */
export interface DocumentPackageRow {
  kind: number;
  data: unknown;
  header: unknown;
  manifest_id: string;
  manifest_date: Date;
  status: string;
  carrier_barcode: string;
  awb: string | null;
  container_id: string | null;
  house_waybill: string | null;
}

/** Found as GET /packages/{TrackingNumber} finds it; 404 when not this account's. */
export async function loadDocumentPackage(options: LoadScope & { trackingNumber: string }): Promise<DocumentPackageRow> {
  const { accountId, environment, trackingNumber: identifier } = options;
  const match = isCarrierBarcode(identifier)
    ? sql`p.carrier_barcode = ${normalizeCarrierBarcode(identifier)}`
    : sql`lower(p.tracking_number) = lower(${identifier})`;
  const inScope = sql`p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND ${match}`;
  const exact = sql`p.tracking_number IS NOT DISTINCT FROM ${identifier}`;
  const row = await queryRow(
    pgPool(),
    sql<DocumentPackageRow & { exact: boolean }>`
      (SELECT 0 AS kind, p.detail AS data, m.header, m.id AS manifest_id, m.manifest_date, p.status, p.carrier_barcode,
              m.awb, m.container_id, p.house_waybill, ${exact} AS exact
       FROM container_packages p JOIN container_manifests m ON m.id = p.manifest_id WHERE ${inScope})
      UNION ALL
      (SELECT 1, p.data, NULL, p.daily_manifest_id, p.manifest_date, p.status, p.carrier_barcode, NULL, NULL,
              p.house_waybill, ${exact}
       FROM packages p WHERE ${inScope})
      ORDER BY exact DESC, kind LIMIT 1`,
  );
  if (!row)
    throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
  return row;
}

export async function loadDocumentLabel(options: LoadScope & { trackingNumber: string }): Promise<DocumentLabel> {
  return labelOf(await loadDocumentPackage(options));
}

/** In the order given, in one query; a barcode not this account's is left out (the caller compares the count). */
export async function loadDocumentLabels(options: LoadScope & { carrierBarcodes: readonly string[] }): Promise<DocumentLabel[]> {
  const { accountId, environment, carrierBarcodes } = options;
  const inScope = sql`p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment"
                      AND p.carrier_barcode = ANY(${[...carrierBarcodes]}::text[])`;
  const rows = await queryRows(
    pgPool(),
    sql<DocumentPackageRow>`
      (SELECT 0 AS kind, p.detail AS data, m.header, m.id AS manifest_id, m.manifest_date, p.status, p.carrier_barcode,
              m.awb, m.container_id, p.house_waybill
       FROM container_packages p JOIN container_manifests m ON m.id = p.manifest_id WHERE ${inScope})
      UNION ALL
      (SELECT 1, p.data, NULL, p.daily_manifest_id, p.manifest_date, p.status, p.carrier_barcode, NULL, NULL, p.house_waybill
       FROM packages p WHERE ${inScope})`,
  );
  const order = new Map(carrierBarcodes.map((barcode, i) => [barcode, i]));
  rows.sort((a, b) => (order.get(a.carrier_barcode) ?? 0) - (order.get(b.carrier_barcode) ?? 0));
  return rows.map(labelOf);
}

function labelOf(row: DocumentPackageRow): DocumentLabel {
  const data = obj(row.data);
  const header = obj(row.header);
  return {
    manifestId: row.manifest_id,
    manifestDate: day(row.manifest_date),
    carrier: 'Carrier',
    shipper: party(row.kind === 0 ? header : data),
    pkg: documentPackage(data, header, row.carrier_barcode),
    ...labelState(row.status),
  };
}

/** At most this many pickups are shown on the handover (a manifest normally has one). */
const PICKUPS_SHOWN = 3;

/**
 * The manifest's pickups that are not cancelled, earliest window first: scheduled for the manifest, or for a set of
 * packages one of which is on it (pickups.md). One statement; the account's pickups are few beside its packages.
 */
export async function loadManifestPickups(head: ManifestHead, scope: LoadScope): Promise<DocumentPickup[]> {
  const barcodes =
    head.kind === 'container'
      ? sql`SELECT carrier_barcode FROM container_packages WHERE manifest_id = ${head.manifestId}`
      : sql`SELECT carrier_barcode FROM packages WHERE daily_manifest_id = ${head.manifestId}`;
  const rows = await queryRows(
    pgPool(),
    sql<{
      id: string;
      status: 'scheduled' | 'completed';
      ready_at: Date;
      close_at: Date;
      address: Record<string, unknown>;
      package_count: number;
      instructions: string;
    }>`
      SELECT id, status, ready_at, close_at, address, cardinality(carrier_barcodes) AS package_count, instructions
      FROM pickups
      WHERE account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment" AND status <> 'cancelled'
        AND (manifest_id = ${head.manifestId} OR carrier_barcodes && ARRAY(${barcodes}))
      ORDER BY ready_at, id LIMIT ${PICKUPS_SHOWN}`,
  );
  return rows.map((row) => {
    const a = row.address;
    const part = (key: string) => (typeof a[key] === 'string' && a[key] ? a[key] : undefined);
    const cityLine = [part('city'), [part('state'), part('postal_code')].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    return {
      id: row.id,
      status: row.status,
      readyAt: row.ready_at.toISOString(),
      closeAt: row.close_at.toISOString(),
      address: [part('company'), part('address1'), part('address2'), cityLine, part('country')].filter(Boolean).join(', '),
      packageCount: row.package_count,
      ...(row.instructions ? { instructions: row.instructions } : {}),
    };
  });
}
