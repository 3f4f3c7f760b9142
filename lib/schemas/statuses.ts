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

export type PackageStatus = (typeof PACKAGE_STATUSES)[number];
export type ContainerStatus = (typeof CONTAINER_STATUSES)[number];

/** What a customs authority answered about a house or a container, each sent as `customs.<outcome>`. */
export const CUSTOMS_OUTCOMES = [
  'assessment_complete',
  'information_requested',
  'screening_requested',
  'do_not_load',
  'released',
] as const;
export type CustomsOutcome = (typeof CUSTOMS_OUTCOMES)[number];
