import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import type { DocumentLabel } from './types';
import { day, documentPackage, obj, party, stateOf, type ManifestSource } from './manifest-source';

// The documents' data: a manifest (container or daily) and its packages, scoped by account and
// environment; another's id is a plain 404. It reads the stored request JSON the API accepted, and
// the manifest's lifecycle status (a cancelled manifest's paper says so). The packages come as one
// JSON text built by PostgreSQL, parsed where the document is rendered (manifest-source.ts).

export interface LoadScope {
  accountId: string;
  environment: Environment;
}

/** A manifest without its packages: enough to name its files and to know whether its documents can be kept. */
export type ManifestHead = Omit<ManifestSource, 'packagesJson'>;

/** The manifest's row; 404 when it is not this account's in this environment. */
export async function loadManifestHead(options: LoadScope & { manifestId: string }): Promise<ManifestHead> {
  const { accountId, environment, manifestId } = options;
  const pool = pgPool();
  const row = await queryRow(
    pool,
    sql<{ id: string; manifest_date: Date; service_name: string; awb: string | null; header: unknown; container_id: string; shipment_description: string; status: string }>`
      SELECT id, manifest_date, service_name, awb, header, container_id, shipment_description, status FROM container_manifests
      WHERE id = ${manifestId} AND account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"`,
  );
  if (row) {
    return {
      kind: 'container', manifestId: row.id, state: stateOf(row.status), manifestDate: day(row.manifest_date), header: obj(row.header), serviceName: row.service_name,
      awb: row.awb ?? undefined, containerId: row.container_id, shipmentDescription: row.shipment_description, generatedAt: new Date(),
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
    kind: 'daily', manifestId: dailyRow.id, state: stateOf(dailyRow.status, 'daily'), manifestDate: day(dailyRow.manifest_date),
    // A closed manifest's document is the one of its close (it never changes): dated by the close.
    generatedAt: dailyRow.status === 'closed' ? dailyRow.status_updated_at : new Date(),
  };
}

/**
 * Every package of the manifest (cancelled ones too) as `[[data, status, carrier_barcode], …]` in document order: one
 * text value, so that the serving thread neither parses nor copies 5,000 objects.
 */
export async function loadPackagesJson(head: ManifestHead): Promise<string> {
  const row =
    head.kind === 'container'
      ? await queryRow(
          pgPool(),
          sql<{ packages: string }>`SELECT coalesce(json_agg(json_build_array(detail, status, carrier_barcode) ORDER BY position), '[]')::text AS packages
            FROM container_packages WHERE manifest_id = ${head.manifestId}`,
        )
      : await queryRow(
          pgPool(),
          sql<{ packages: string }>`SELECT coalesce(json_agg(json_build_array(data, status, carrier_barcode) ORDER BY id), '[]')::text AS packages
            FROM packages WHERE daily_manifest_id = ${head.manifestId}`,
        );
  return row?.packages ?? '[]';
}

/** A cancelled package's own label says CANCELLED across it (as its manifest's would). */
const labelState = (status: string): Pick<DocumentLabel, 'state'> => (status === 'cancelled' ? { state: 'cancelled' } : {});

/**
 * One package's label, found as GET /packages/{TrackingNumber} finds it (by carrier barcode, or by tracking number as
 * stored, then in any case; the container's package first); 404 when not this account's.
 */
export async function loadDocumentLabel(options: LoadScope & { trackingNumber: string }): Promise<DocumentLabel> {
  const { accountId, environment, trackingNumber: identifier } = options;
  const match = isCarrierBarcode(identifier)
    ? sql`p.carrier_barcode = ${normalizeCarrierBarcode(identifier)}`
    : sql`lower(p.tracking_number) = lower(${identifier})`;
  const inScope = sql`p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND ${match}`;
  const exact = sql`p.tracking_number IS NOT DISTINCT FROM ${identifier}`;
  const row = await queryRow(
    pgPool(),
    sql<{ kind: number; data: unknown; header: unknown; manifest_id: string; manifest_date: Date; status: string; carrier_barcode: string; exact: boolean }>`
      (SELECT 0 AS kind, p.detail AS data, m.header, m.id AS manifest_id, m.manifest_date, p.status, p.carrier_barcode, ${exact} AS exact
       FROM container_packages p JOIN container_manifests m ON m.id = p.manifest_id WHERE ${inScope})
      UNION ALL
      (SELECT 1, p.data, NULL, p.daily_manifest_id, p.manifest_date, p.status, p.carrier_barcode, ${exact} FROM packages p WHERE ${inScope})
      ORDER BY exact DESC, kind LIMIT 1`,
  );
  if (!row) throw new AppError('not_found', 'No package with this tracking number or carrier barcode in this account and environment.');
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
