import type { z } from 'zod';
import type {
  ZListEventsResponse,
  ZListManifestsResponse,
  ZListPackagesResponse,
  ZManifestResponse,
  ZPackageResponse,
} from '@/lib/schemas/lifecycle';
import type { ZManifestServicesResponse } from '@/lib/schemas/portal-responses';

// What the portal's lifecycle endpoints answer: the read API's own shapes (lib/schemas/lifecycle.ts), as the API's
// operations answer them behind the session (lib/portal/api-operation.ts). Client-safe.
export type TPackage = z.output<typeof ZPackageResponse>;
export type TPackageList = z.output<typeof ZListPackagesResponse>;
export type TEventList = z.output<typeof ZListEventsResponse>;
export type TManifest = z.output<typeof ZManifestResponse>;
export type TManifestList = z.output<typeof ZListManifestsResponse>;
export type TManifestServices = z.output<typeof ZManifestServicesResponse>;

/** The list filters the Packages page keeps in its URL, under GET /packages's own parameter names. */
export const PACKAGE_FILTERS = ['tracking_number', 'status', 'manifest_id', 'service', 'from', 'to', 'to_postal_code'] as const;

/** The list filters the Manifests page keeps in its URL, under GET /manifests's own parameter names. */
export const MANIFEST_FILTERS = ['q', 'type', 'service', 'from', 'to'] as const;
