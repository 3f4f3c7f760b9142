// Shapes the portal's manifest and package endpoints return. Client-safe: the pages import these.

export type ManifestType = 'container' | 'daily';

export interface ManifestListItem {
  type: ManifestType;
  id: string;
  containerId: string | null;
  /** The manifest day, YYYY-MM-DD. */
  manifestDate: string;
  /** The container's ServiceName, or the distinct services of a daily manifest's packages. */
  service: string | null;
  packageCount: number;
  createdAt: string;
}

export interface ManifestList {
  items: ManifestListItem[];
  total: number;
  offset: number;
  limit: number;
  /** Distinct services across the account's manifests in this environment, for the filter. */
  services: string[];
}

export interface ManifestDetail {
  type: ManifestType;
  id: string;
  containerId: string | null;
  manifestDate: string;
  manifestDateDefaulted: boolean;
  service: string | null;
  packageCount: number;
  createdAt: string;
  /** Container manifests: every header field as accepted. Daily manifests: null. */
  header: Record<string, unknown> | null;
  /** Columns of the packages table and the CSV export, in order. */
  columns: string[];
}

export interface ManifestPackageRow {
  position: number;
  trackingNumber: string | null;
  detail: Record<string, unknown>;
}

export interface ManifestPackagePage {
  items: ManifestPackageRow[];
  total: number;
  offset: number;
  limit: number;
}

export interface FoundPackage {
  kind: ManifestType;
  trackingNumber: string;
  manifestId: string;
  manifestDate: string;
  service: string | null;
  containerId: string | null;
  createdAt: string;
  detail: Record<string, unknown>;
}
