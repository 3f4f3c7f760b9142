// The lifecycle's statuses (design.md "Lifecycle"): words of the published contract, read by the request and
// response schemas, the OpenAPI document and the portal. Which status may follow which is lib/status/transitions.ts.

export const PACKAGE_STATUSES = [
  'manifested',
  'received',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'cancelled',
] as const;
export const CONTAINER_STATUSES = ['manifested', 'received', 'departed', 'arrived', 'closed', 'cancelled'] as const;
/** A daily manifest is open (manifested) until closed, or cancelled when a cancel left it no live package. */
export const DAILY_MANIFEST_STATUSES = ['manifested', 'closed', 'cancelled'] as const;

export type PackageStatus = (typeof PACKAGE_STATUSES)[number];
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];
export type DailyManifestStatus = (typeof DAILY_MANIFEST_STATUSES)[number];
