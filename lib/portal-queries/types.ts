// Shapes the portal's manifest endpoints return: the output types of their response schemas
// (lib/schemas/portal-responses.ts), named as the queries here use them. Client-safe.
import type {
  TPortalManifestDetail,
  TPortalManifestList,
  TPortalManifestListItem,
  TPortalManifestPackagePage,
  TPortalManifestPackageRow,
} from '@/lib/schemas/portal-responses';

export type ManifestListItem = TPortalManifestListItem;
export type ManifestType = ManifestListItem['type'];
export type ManifestList = TPortalManifestList;
export type ManifestDetail = TPortalManifestDetail;
export type ManifestPackageRow = TPortalManifestPackageRow;
export type ManifestPackagePage = TPortalManifestPackagePage;
