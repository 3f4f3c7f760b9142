import type { z } from 'zod';
import type {
  ZListEventsResponse,
  ZListManifestsResponse,
  ZListPackagesResponse,
  ZManifestResponse,
  ZPackageResponse,
} from '@/lib/schemas/lifecycle';
import type { ZManifestServicesResponse } from '@/lib/schemas/portal-responses';

export type TPackage = z.output<typeof ZPackageResponse>;
export type TPackageList = z.output<typeof ZListPackagesResponse>;
export type TEventList = z.output<typeof ZListEventsResponse>;
export type TManifest = z.output<typeof ZManifestResponse>;
export type TManifestList = z.output<typeof ZListManifestsResponse>;
export type TManifestServices = z.output<typeof ZManifestServicesResponse>;

// The filters a list page keeps in its URL, under the list operation's own parameter names.
export const PACKAGE_FILTERS = [
  'tracking_number',
  'status',
  'manifest_id',
  'service',
  'from',
  'to',
  'to_postal_code',
  'customs_not_ready',
] as const;

export const MANIFEST_FILTERS = ['q', 'type', 'status', 'service', 'from', 'to'] as const;
