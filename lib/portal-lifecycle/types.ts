import type { z } from 'zod';
import type { ZEventResponse, ZListEventsResponse, ZListPackagesResponse, ZManifestResponse, ZPackageResponse } from '@/lib/schemas/lifecycle';

// What the portal's lifecycle endpoints answer: the read API's own shapes (lib/schemas/lifecycle.ts). Client-safe.
export type TPackage = z.output<typeof ZPackageResponse>;
export type TPackageList = z.output<typeof ZListPackagesResponse>;
export type TEvent = z.output<typeof ZEventResponse>;
export type TEventList = z.output<typeof ZListEventsResponse>;
export type TManifestStatus = z.output<typeof ZManifestResponse>;

/** The list filters the Packages page keeps in its URL, under GET /packages's own parameter names. */
export const PACKAGE_FILTERS = ['tracking_number', 'status', 'manifest_id', 'service', 'from', 'to', 'to_postal_code'] as const;
export type PackageFilter = (typeof PACKAGE_FILTERS)[number];
