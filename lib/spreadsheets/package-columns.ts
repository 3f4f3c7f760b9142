import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';

// A manifest's package columns, in the order of each operation's schema: the portal's packages table on a manifest's
// page and the manifest's CSV export. Client-safe.
export const CONTAINER_PACKAGE_COLUMNS = Object.keys(ZContainerDetail.shape);
export const DAILY_PACKAGE_COLUMNS = Object.keys(ZPackage.shape);

export function packageColumns(type: 'container' | 'daily'): string[] {
  return type === 'container' ? CONTAINER_PACKAGE_COLUMNS : DAILY_PACKAGE_COLUMNS;
}
