import 'server-only';
import { pgPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
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

function documentPackage(data: Json, header: Json): DocumentPackage {
  return {
    trackingNumber: str(data.TrackingNumber), weight: num(data.PackageWeight), weightUnit: str(data.PackageWeightUnit) ?? str(data.WeightUnit),
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
    const all = await queryRows(pool, sql<{ detail: unknown; status: string }>`SELECT detail, status FROM container_packages WHERE manifest_id = ${row.id} ORDER BY position`);
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
      packages: packages.map((p) => documentPackage(obj(p.detail), header)), cancelledPackages: all.length - packages.length, generatedAt: new Date(),
    };
  }
  const dailyRow = await queryRow(
    pool,
    sql<{ id: string; manifest_date: Date | string; status: string; status_updated_at: Date }>`
      SELECT id, manifest_date, status, status_updated_at FROM daily_manifests
      WHERE id = ${manifestId} AND account_id = ${accountId}::uuid AND environment = ${environment}::"Environment"`,
  );
  if (!dailyRow) throw new AppError('not_found', 'No manifest with this id in this account and environment.');
  const all = await queryRows(pool, sql<{ data: unknown; status: string }>`SELECT data, status FROM packages WHERE daily_manifest_id = ${dailyRow.id} ORDER BY id`);
  const state = stateOf(dailyRow.status, 'daily');
  const packages = handedOver(all, state);
  const first = obj(packages[0]?.data);
  const services = new Set(packages.map((p) => str(obj(p.data).ServiceName)).filter(Boolean));
  return {
    kind: 'daily', manifestId: dailyRow.id, state, manifestDate: day(dailyRow.manifest_date),
    serviceName: services.size === 1 ? [...services][0] : services.size > 1 ? 'Mixed' : undefined, carrier: 'Carrier',
    shipper: party(first), fromTerminal: str(first.FromTerminal), toTerminal: str(first.ToTerminal),
    // A closed manifest's document is the one of its close (issue 15: it never changes): dated by the close.
    packages: packages.map((p) => documentPackage(obj(p.data), {})), cancelledPackages: all.length - packages.length, generatedAt: dailyRow.status === 'closed' ? dailyRow.status_updated_at : new Date(),
  };
}

/** A cancelled package's own label says CANCELLED across it (as its manifest's would). */
const labelState = (status: string): Pick<DocumentLabel, 'state'> => (status === 'cancelled' ? { state: 'cancelled' } : {});

/** Labels for every package of a manifest (its cancelled packages are not in it: handedOver). */
export function manifestLabels(manifest: DocumentManifest): DocumentLabel[] {
  return manifest.packages.map((pkg) => ({ manifestId: manifest.manifestId, manifestDate: manifest.manifestDate, carrier: manifest.carrier, shipper: manifest.shipper, pkg, state: manifest.state }));
}

/** One package's label, found by tracking number among daily and container packages; 404 when not this account's. */
export async function loadDocumentLabel(options: LoadScope & { trackingNumber: string }): Promise<DocumentLabel> {
  const { accountId, environment, trackingNumber } = options;
  const pool = pgPool();
  const d = await queryRow(
    pool,
    sql<{ data: unknown; daily_manifest_id: string; manifest_date: Date; status: string }>`
      SELECT data, daily_manifest_id, manifest_date, status FROM packages
      WHERE account_id = ${accountId}::uuid AND environment = ${environment}::"Environment" AND tracking_number = ${trackingNumber}`,
  );
  if (d) {
    const data = obj(d.data);
    return { manifestId: d.daily_manifest_id, manifestDate: day(d.manifest_date), carrier: 'Carrier', shipper: party(data), pkg: documentPackage(data, {}), ...labelState(d.status) };
  }
  const c = await queryRow(
    pool,
    sql<{ detail: unknown; header: unknown; id: string; manifest_date: Date; status: string }>`
      SELECT p.detail, m.header, m.id, m.manifest_date, p.status FROM container_packages p JOIN container_manifests m ON m.id = p.manifest_id
      WHERE p.account_id = ${accountId}::uuid AND p.environment = ${environment}::"Environment" AND p.tracking_number = ${trackingNumber}`,
  );
  if (!c) throw new AppError('not_found', 'No package with this tracking number in this account and environment.');
  const header = obj(c.header);
  return { manifestId: c.id, manifestDate: day(c.manifest_date), carrier: 'Carrier', shipper: party(header), pkg: documentPackage(obj(c.detail), header), ...labelState(c.status) };
}
