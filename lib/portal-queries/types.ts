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
  /** The lifecycle status (a daily manifest: manifested, closed or cancelled). */
  status: string;
}

export interface ManifestList {
  items: ManifestListItem[];
  /** Manifests matching the filters (a count of manifest rows, never of packages). */
  total: number;
  limit: number;
  /** Keyset cursors: `after=nextCursor` gives the next (older) page, `before=prevCursor` the previous one; null at either end. */
  nextCursor: string | null;
  prevCursor: string | null;
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
  /** The manifest's package count (kept on the manifest row). */
  total: number;
  limit: number;
  /** `cursor=nextCursor` gives the next page; null on the last one. */
  nextCursor: string | null;
}
