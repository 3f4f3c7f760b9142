// Inputs of the document renderers: plain data, no database rows, no HTTP. lib/documents/load-*.ts builds them.

export type ManifestKind = 'container' | 'daily';
export type ManifestState = 'open' | 'closed' | 'cancelled';
export type PaperSize = 'letter' | 'a4';

export interface DocumentParty {
  company?: string;
  name?: string;
  address1?: string;
  address2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  phone?: string;
}

export interface DocumentPackage {
  trackingNumber?: string;
  /** Ours (CB…), on every package: the label's sort barcode. */
  carrierBarcode?: string;
  /** A daily package's own sender (a daily manifest gathers several); a container's packages have the container's. */
  from?: DocumentParty;
  weight?: number;
  /** lb, kg or oz; lb when unknown. */
  weightUnit?: string;
  length?: number;
  width?: number;
  height?: number;
  serviceName?: string;
  sortCode?: string;
  toName?: string;
  toAddress1?: string;
  toAddress2?: string;
  toCity?: string;
  toState?: string;
  toPostalCode?: string;
  toCountry?: string;
  toTerminal?: string;
  fromTerminal?: string;
  /** What it costs (lib/billing/pricing.ts): priced, unpriced or voided, the amount as two-decimal text. */
  charge?: { status: string; amount?: string; currency?: string };
}

/** A pickup of the manifest or of some of its packages (lib/pickups), shown in the handover's driver block. */
export interface DocumentPickup {
  id: string;
  status: 'scheduled' | 'completed';
  /** ISO instants: the window the driver comes in. */
  readyAt: string;
  closeAt: string;
  /** The pickup address on one line. */
  address: string;
  packageCount: number;
  instructions?: string;
}

export interface DocumentManifest {
  kind: ManifestKind;
  manifestId: string;
  state: ManifestState;
  /** YYYY-MM-DD */
  manifestDate: string;
  serviceName?: string;
  carrier: string;
  shipper: DocumentParty;
  /** A daily manifest whose packages came from more than one sender: each of them, first seen first. */
  senders?: DocumentParty[];
  fromTerminal?: string;
  toTerminal?: string;
  awb?: string;
  containerId?: string;
  containerName?: string;
  containerDimensions?: { length: number; width: number; height: number };
  /** Container weight with packages, lb, as declared. */
  containerWeightLb?: number;
  shipmentDescription?: string;
  packages: DocumentPackage[];
  /** Packages cancelled on an open or closed manifest: not listed, counted, tagged or labelled (the dock must not count them). */
  cancelledPackages?: number;
  /** When the document was produced (shown in the footer); a closed manifest passes its closing time. */
  generatedAt: Date;
  /** Its pickups that are not cancelled, earliest window first (the handover's driver block). */
  pickups?: DocumentPickup[];
}

/** A package label: its package plus the manifest it travels on. */
export interface DocumentLabel {
  manifestId: string;
  manifestDate: string;
  carrier: string;
  shipper: DocumentParty;
  pkg: DocumentPackage;
  state?: ManifestState;
}
