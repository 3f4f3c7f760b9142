import type {
  DocumentLabel,
  DocumentManifest,
  DocumentPackage,
  DocumentParty,
  DocumentPickup,
  ManifestKind,
  ManifestState,
} from './types';

// A manifest's data as the database gives it, and the DocumentManifest the renderers draw. Pure, so that the decoding
// and parsing run on the render thread, not the serving thread (docs/decisions/document-rendering.md).

type Json = Record<string, unknown>;

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
export const num = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
export const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

export function party(data: Json): DocumentParty {
  return {
    company: str(data.FromCompany),
    name: str(data.FromName),
    address1: str(data.FromAddress1),
    address2: str(data.FromAddress2),
    city: str(data.FromCity),
    state: str(data.FromState),
    postalCode: str(data.FromPostalcode) ?? str(data.FromPostalCode),
    country: str(data.FromCountry),
    phone: str(data.FromPhone),
  };
}

function distinctParties(parties: DocumentParty[]): DocumentParty[] {
  const seen = new Map<string, DocumentParty>();
  for (const p of parties) {
    const key = [p.company, p.address1, p.postalCode].map((v) => (v ?? '').trim().toLowerCase()).join('|');
    if (!seen.has(key)) seen.set(key, p);
  }
  return [...seen.values()];
}

export function documentPackage(data: Json, header: Json, carrierBarcode: string): DocumentPackage {
  return {
    trackingNumber: str(data.TrackingNumber),
    carrierBarcode,
    weight: num(data.PackageWeight),
    weightUnit: str(data.PackageWeightUnit) ?? str(data.WeightUnit),
    length: num(data.PackageSizeLength),
    width: num(data.PackageSizeWidth),
    height: num(data.PackageSizeHeight),
    serviceName: str(data.ServiceName) ?? str(header.ServiceName),
    sortCode: str(data.SortCode) ?? str(header.SortCode),
    toName: str(data.ToName) ?? str(data.Consignee) ?? str(header.Consignee),
    toAddress1: str(data.ToAddress1),
    toAddress2: str(data.ToAddress2),
    toCity: str(data.ToCity),
    toState: str(data.ToState),
    toPostalCode: str(data.ToPostalCode),
    toCountry: str(data.ToCountry),
    toTerminal: str(data.ToTerminal) ?? str(header.ToTerminal),
    fromTerminal: str(data.FromTerminal) ?? str(header.FromTerminal),
  };
}

/** A container's `closed` is the end of its journey, not a close-out: it prints as open. */
export const stateOf = (status: string, kind: ManifestKind = 'container'): ManifestState =>
  status === 'cancelled' ? 'cancelled' : kind === 'daily' && status === 'closed' ? 'closed' : 'open';

/**
 * On an open or closed manifest a cancelled package is left out of the list, the totals and the labels (a dock
 * counting boxes against the paper must not count it); a cancelled manifest shows everything under its stamp.
 */
export function handedOver<T extends { status: string }>(packages: T[], state: ManifestState): T[] {
  return state === 'cancelled' ? packages : packages.filter((p) => p.status !== 'cancelled');
}

export const day = (value: Date | string): string =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/**
 * A manifest as read: its row's fields, and its packages as JSON text. Plain data (structured-clonable). `Packages` is
 * what says which packages to read (package-bytes.ts) in a source whose packages the render thread reads itself.
 */
export interface ManifestSource<Packages = Uint8Array> {
  kind: ManifestKind;
  manifestId: string;
  state: ManifestState;
  manifestDate: string;
  /** A container's: the manifest row's header JSON (the request without its packages), service, AWB, ids. */
  header?: Json;
  serviceName?: string;
  awb?: string;
  containerId?: string;
  shipmentDescription?: string;
  /** `[[data, status, carrier_barcode], …]` as UTF-8 bytes. */
  packages: Packages;
  generatedAt: Date;
  /** The handover's only (load-documents.ts loadManifestPickups). */
  pickups?: DocumentPickup[];
}

/** data, status, carrier barcode, house waybill (or null), then the charge's status, amount and currency (or nulls). */
type Row = [unknown, string, string, unknown?, (string | null)?, (string | null)?, (string | null)?];
const utf8 = new TextDecoder();

export function materializeManifest(source: ManifestSource): DocumentManifest {
  const all = (JSON.parse(utf8.decode(source.packages)) as Row[]).map(
    ([data, status, carrierBarcode, , chargeStatus, amount, currency]) => ({
      data: obj(data),
      status,
      carrierBarcode,
      charge: chargeStatus ? { status: chargeStatus, amount: amount ?? undefined, currency: currency ?? undefined } : undefined,
    }),
  );
  const { state } = source;
  const packages = handedOver(all, state);
  const cancelledPackages = all.length - packages.length;
  if (source.kind === 'container') {
    const header = source.header ?? {};
    const length = num(header.ContainerLength);
    const width = num(header.ContainerWidth);
    const height = num(header.ContainerHeight);
    return {
      kind: 'container',
      manifestId: source.manifestId,
      state,
      manifestDate: source.manifestDate,
      serviceName: source.serviceName,
      carrier: 'Carrier',
      shipper: party(header),
      fromTerminal: str(header.FromTerminal),
      toTerminal: str(header.ToTerminal),
      awb: source.awb,
      containerId: source.containerId,
      containerName: str(header.ContainerName) ?? str(header['Container Name']),
      ...(length !== undefined && width !== undefined && height !== undefined
        ? { containerDimensions: { length, width, height } }
        : {}),
      containerWeightLb: num(header.ContainerWeight) ?? num(header['Container Weight']),
      shipmentDescription: source.shipmentDescription,
      packages: packages.map((p) => ({ ...documentPackage(p.data, header, p.carrierBarcode), charge: p.charge })),
      cancelledPackages,
      generatedAt: source.generatedAt,
      ...(source.pickups?.length ? { pickups: source.pickups } : {}),
    };
  }
  const first = packages[0]?.data ?? {};
  const services = new Set(packages.map((p) => str(p.data.ServiceName)).filter(Boolean));
  // A daily manifest gathers the account's packages of a day, whoever sent each: its paper names every sender.
  const senders = distinctParties(packages.map((p) => party(p.data)));
  return {
    kind: 'daily',
    manifestId: source.manifestId,
    state,
    manifestDate: source.manifestDate,
    serviceName: services.size === 1 ? [...services][0] : services.size > 1 ? 'Mixed' : undefined,
    carrier: 'Carrier',
    shipper: party(first),
    ...(senders.length > 1 ? { senders } : {}),
    fromTerminal: str(first.FromTerminal),
    toTerminal: str(first.ToTerminal),
    packages: packages.map((p) => ({ ...documentPackage(p.data, {}, p.carrierBarcode), from: party(p.data), charge: p.charge })),
    cancelledPackages,
    generatedAt: source.generatedAt,
    ...(source.pickups?.length ? { pickups: source.pickups } : {}),
  };
}

export function manifestLabels(manifest: DocumentManifest): DocumentLabel[] {
  return manifest.packages.map((pkg) => ({
    manifestId: manifest.manifestId,
    manifestDate: manifest.manifestDate,
    carrier: manifest.carrier,
    // Each daily package's label names its own sender; a container's packages share the container's.
    shipper: pkg.from ?? manifest.shipper,
    pkg,
    state: manifest.state,
  }));
}
