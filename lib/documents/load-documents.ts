import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import type { DocumentLabel, DocumentPickup } from './types';
import { day, documentPackage, obj, party, stateOf, type ManifestSource } from './manifest-source';
import type { PackagesQuery } from './package-bytes';

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

/** Which packages a manifest's document reads, where it renders (package-bytes.ts). */
export function packagesQuery(head: ManifestHead, options: { houseWaybills?: boolean } = {}): PackagesQuery {
  return { kind: head.kind, manifestId: head.manifestId, houseWaybills: options.houseWaybills ?? false };
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
