import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import type { DocumentLabel, DocumentManifest, DocumentPackage, DocumentParty, ManifestState } from './types';

// The documents' data: a manifest (container or daily) and its packages, scoped by account and
// environment; another's id is a plain 404. It reads the stored request JSON the API accepted, and
// the manifest's lifecycle status (a cancelled manifest's paper says so).

type Json = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);
const num = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

function party(data: Json): DocumentParty {
  return {
    company: str(data.FromCompany), name: str(data.FromName), address1: str(data.FromAddress1), address2: str(data.FromAddress2),
    city: str(data.FromCity), state: str(data.FromState), postalCode: str(data.FromPostalcode) ?? str(data.FromPostalCode),
    country: str(data.FromCountry), phone: str(data.FromPhone),
  };
}

function documentPackage(data: Json, header: Json, carrierBarcode: string): DocumentPackage {
  return {
    trackingNumber: str(data.TrackingNumber), carrierBarcode, weight: num(data.PackageWeight), weightUnit: str(data.PackageWeightUnit) ?? str(data.WeightUnit),
    length: num(data.PackageSizeLength), width: num(data.PackageSizeWidth), height: num(data.PackageSizeHeight),
    serviceName: str(data.ServiceName) ?? str(header.ServiceName), sortCode: str(data.SortCode) ?? str(header.SortCode),
    toName: str(data.ToName) ?? str(data.Consignee) ?? str(header.Consignee), toAddress1: str(data.ToAddress1), toAddress2: str(data.ToAddress2),
    toCity: str(data.ToCity), toState: str(data.ToState), toPostalCode: str(data.ToPostalCode), toCountry: str(data.ToCountry),
    toTerminal: str(data.ToTerminal) ?? str(header.ToTerminal), fromTerminal: str(data.FromTerminal) ?? str(header.FromTerminal),
  };
}

/**
 * A cancelled manifest's paper says CANCELLED across it, a closed daily manifest's says CLOSED; every other status
 * prints as open. (A container's `closed` is the end of its journey, not a close-out: it prints as open.)
 */
const stateOf = (status: string, kind: 'container' | 'daily' = 'container'): ManifestState =>
  status === 'cancelled' ? 'cancelled' : kind === 'daily' && status === 'closed' ? 'closed' : 'open';

/**
 * The packages the carrier is handed: on an open or closed manifest a cancelled package is left out of the list,
 * the totals, the tag's piece count and the labels (a dock counting boxes against the paper must not count it).
 * A cancelled manifest's paper shows everything it held, under its CANCELLED stamp.
 */
function handedOver<T extends { status: string }>(packages: T[], state: ManifestState): T[] {
  return state === 'cancelled' ? packages : packages.filter((p) => p.status !== 'cancelled');
}

const day = (value: Date | string): string => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

export interface LoadScope {
  accountId: string;
  environment: Environment;
}

/** A manifest and its packages as the documents draw them; 404 when it is not this account's in this environment. */
export async function loadDocumentManifest(options: LoadScope & { manifestId: string }): Promise<DocumentManifest> {
  const { accountId, environment, manifestId } = options;
  const pool = pgPool();
  const row = await queryRow(
    pool,
    sql<{ id: string; manifest_date: Date; service_name: string; awb: string | null; header: unknown; container_id: string; shipment_description: string; status: string }>`
      SELECT id, manifest_date, service_name, awb, header, container_id, shipment_description, status FROM container_manifests
      WHERE id = ${manifestId} AND account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"`,
  );
  if (row) {
    const header = obj(row.header);
    const all = await queryRows(
      pool,
      sql<{ detail: unknown; status: string; carrier_barcode: string }>`SELECT detail, status, carrier_barcode FROM container_packages WHERE manifest_id = ${row.id} ORDER BY position`,
    );
    const state = stateOf(row.status);
    const packages = handedOver(all, state);
    const length = num(header.ContainerLength);
    const width = num(header.ContainerWidth);
    const height = num(header.ContainerHeight);
    return {
      kind: 'container', manifestId: row.id, state, manifestDate: day(row.manifest_date), serviceName: row.service_name, carrier: 'Carrier',
      shipper: party(header), fromTerminal: str(header.FromTerminal), toTerminal: str(header.ToTerminal), awb: row.awb ?? undefined,
      containerId: row.container_id, containerName: str(header.ContainerName) ?? str(header['Container Name']),
      ...(length !== undefined && width !== undefined && height !== undefined ? { containerDimensions: { length, width, height } } : {}),
      containerWeightLb: num(header.ContainerWeight) ?? num(header['Container Weight']), shipmentDescription: row.shipment_description,
      packages: packages.map((p) => documentPackage(obj(p.detail), header, p.carrier_barcode)), cancelledPackages: all.length - packages.length, generatedAt: new Date(),
    };
  }
  const dailyRow = await queryRow(
    pool,
    sql<{ id: string; manifest_date: Date | string; status: string; status_updated_at: Date }>`
      SELECT id, manifest_date, status, status_updated_at FROM daily_manifests
      WHERE id = ${manifestId} AND account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"`,
  );
  if (!dailyRow) throw new AppError('not_found', 'No manifest with this id in this account and environment.');
  const all = await queryRows(
    pool,
    sql<{ data: unknown; status: string; carrier_barcode: string }>`SELECT data, status, carrier_barcode FROM packages WHERE daily_manifest_id = ${dailyRow.id} ORDER BY id`,
  );
  const state = stateOf(dailyRow.status, 'daily');
  const packages = handedOver(all, state);
  const first = obj(packages[0]?.data);
  const services = new Set(packages.map((p) => str(obj(p.data).ServiceName)).filter(Boolean));
  return {
    kind: 'daily', manifestId: dailyRow.id, state, manifestDate: day(dailyRow.manifest_date),
    serviceName: services.size === 1 ? [...services][0] : services.size > 1 ? 'Mixed' : undefined, carrier: 'Carrier',
    shipper: party(first), fromTerminal: str(first.FromTerminal), toTerminal: str(first.ToTerminal),
    // A closed manifest's document is the one of its close (issue 15: it never changes): dated by the close.
    packages: packages.map((p) => documentPackage(obj(p.data), {}, p.carrier_barcode)), cancelledPackages: all.length - packages.length, generatedAt: dailyRow.status === 'closed' ? dailyRow.status_updated_at : new Date(),
  };
}

/** A cancelled package's own label says CANCELLED across it (as its manifest's would). */
const labelState = (status: string): Pick<DocumentLabel, 'state'> => (status === 'cancelled' ? { state: 'cancelled' } : {});

/** Labels for every package of a manifest (its cancelled packages are not in it: handedOver). */
export function manifestLabels(manifest: DocumentManifest): DocumentLabel[] {
  return manifest.packages.map((pkg) => ({ manifestId: manifest.manifestId, manifestDate: manifest.manifestDate, carrier: manifest.carrier, shipper: manifest.shipper, pkg, state: manifest.state }));
}

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
