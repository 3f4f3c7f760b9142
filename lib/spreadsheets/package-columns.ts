import { ZContainerDetail } from '@/lib/schemas/container-manifest';
import { ZPackage } from '@/lib/schemas/package-manifest';

// In each operation's schema order, for a manifest page's table and its CSV export alike. Client-safe.
export const CONTAINER_PACKAGE_COLUMNS = Object.keys(ZContainerDetail.shape);
export const DAILY_PACKAGE_COLUMNS = Object.keys(ZPackage.shape);

export function packageColumns(type: 'container' | 'daily'): string[] {
  return type === 'container' ? CONTAINER_PACKAGE_COLUMNS : DAILY_PACKAGE_COLUMNS;
}
