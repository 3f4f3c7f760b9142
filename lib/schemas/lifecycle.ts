import { isCarrierBarcode, normalizeCarrierBarcode } from './carrier-barcode';
import { WEIGHT_UNITS, ZCharge } from './rate';
import { z } from 'zod';
import { cursor, keysetList } from './list';
import { CONTAINER_STATUSES, CUSTOMS_OUTCOMES, PACKAGE_STATUSES } from './statuses';
import { CUSTOMS_REGIMES } from './customs-api';
import { calendarDayViolation, decimal, integer, oneOf, text, trackingNumber } from './fields';

// The lifecycle API's queries, bodies and responses; the OpenAPI document is generated from them.

export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 25;
export const SCAN_BATCH_MAX = 1_000;

const ALL_STATUSES = [...new Set([...PACKAGE_STATUSES, ...CONTAINER_STATUSES])];

export function day() {
  return z
    .unknown()
    .transform((value, ctx): string | undefined => {
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string' || !/^(20\d{2})-(\d{2})-(\d{2})$/.test(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be a day YYYY-MM-DD in the years 2000 to 2099' });
        return z.NEVER;
      }
      const date = new Date(`${value}T00:00:00Z`);
      if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
        ctx.addIssue({ code: 'custom', message: 'is not a calendar date' });
        return z.NEVER;
      }
      return value;
    })
    .meta({ type: 'string', format: 'date', description: 'A day YYYY-MM-DD (2000–2099), inclusive.' })
    .optional();
}

/** `to` before `from`: a range that holds nothing is a mistake in the request, answered 422 naming `to`. */
export function rangeInOrder(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if (q.from !== undefined && q.to !== undefined && q.to < q.from) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `must not be before from (${q.from})` });
  }
}

export const limit = integer({ min: 1, max: LIST_LIMIT_MAX });

/** A ServiceName is free text of up to 100 characters (ZContainerManifestRequest, ZPackage): a filter takes any of them. */
const SERVICE_NAME_MAX = 100;

// GET /manifests (the portal's Manifests list reads the same, through the same operation)
export const ZListManifestsQuery = z
  .strictObject({
    limit,
    cursor,
    type: oneOf(['container', 'daily'] as const),
    status: oneOf(ALL_STATUSES),
    service: text({ max: SERVICE_NAME_MAX }).meta({
      description: "A container's ServiceName, or a service a daily manifest's packages have (its `services`).",
    }),
    from: day(),
    to: day(),
    container_id: text({ max: 128 }),
    q: text({ max: 128 }).meta({
      description:
        'Search: the start of a ManifestID or a ContainerID (any case), or a tracking number of one of its packages (whole, any case).',
    }),
  })
  .superRefine(rangeInOrder)
  .transform((q) => ({
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    cursor: q.cursor || undefined,
    type: q.type,
    status: q.status,
    service: q.service || undefined,
    from: q.from,
    to: q.to,
    containerId: q.container_id || undefined,
    q: q.q || undefined,
  }));

/** GET /packages's query parameters (the portal's Packages list and CSV export read the same): any other is a 422 naming it. */
export const PACKAGE_LIST_PARAMETERS = [
  'limit',
  'cursor',
  'status',
  'manifest_id',
  'service',
  'from',
  'to',
  'to_postal_code',
  'tracking_number',
  'customs_not_ready',
] as const;

// GET /packages
export const ZListPackagesQuery = z
  .strictObject({
    limit,
    cursor,
    status: oneOf(PACKAGE_STATUSES),
    manifest_id: text({ max: 128 }),
    service: text({ max: 64 }),
    from: day(),
    to: day(),
    to_postal_code: text({ max: 16 }),
    tracking_number: text({ max: 64 }),
    customs_not_ready: oneOf(CUSTOMS_REGIMES).meta({
      description:
        "Houses not ready for this customs regime: a problem of their own in their manifest's `GET /manifests/{id}/customs` (a container's house on its container, a daily package on its own data). Across the account, or one manifest's with `manifest_id`; combines with the other filters.",
    }),
  })
  .superRefine(rangeInOrder)
  .transform((q) => ({
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    cursor: q.cursor || undefined,
    status: q.status,
    manifestId: q.manifest_id || undefined,
    service: q.service || undefined,
    from: q.from,
    to: q.to,
    toPostalCode: q.to_postal_code || undefined,
    trackingNumber: q.tracking_number || undefined,
    customsNotReady: q.customs_not_ready,
  }));

// GET /manifests/{id}/packages
export const ZManifestPackagesQuery = z
  .strictObject({
    limit,
    cursor,
    customs_not_ready: oneOf(CUSTOMS_REGIMES).meta({
      description: 'Only the houses not ready for this customs regime (a problem of their own in `GET /manifests/{id}/customs`).',
    }),
  })
  .transform((q) => ({
    limit: q.limit ?? LIST_LIMIT_DEFAULT,
    cursor: q.cursor || undefined,
    customsNotReady: q.customs_not_ready,
  }));

// POST …/simulate (test path only)
/** Events times subscribed endpoints one simulate call may make: a larger walk is refused before anything is written. */
export const MAX_SIMULATED_DELIVERIES = 10_000;

/** What the hub measured at a `received` scan: the package is re-rated on it (lib/billing/adjust.ts). */
export const ZMeasured = z
  .strictObject({
    weight: decimal({ maxDecimals: 3, max: 10_000 }),
    weight_unit: oneOf(WEIGHT_UNITS),
    length: decimal({ maxDecimals: 2, max: 1_000 }),
    width: decimal({ maxDecimals: 2, max: 1_000 }),
    height: decimal({ maxDecimals: 2, max: 1_000 }),
  })
  .superRefine((m, ctx) => {
    const dims = [m.length, m.width, m.height].filter((d) => d !== undefined).length;
    if (m.weight === undefined && dims === 0)
      ctx.addIssue({ code: 'custom', path: ['weight'], message: 'send the measured weight, the dimensions, or both' });
    if (m.weight !== undefined && m.weight_unit === undefined)
      ctx.addIssue({ code: 'custom', path: ['weight_unit'], message: 'is required with weight (lb, kg or oz)' });
    if (dims > 0 && dims < 3)
      for (const name of ['length', 'width', 'height'] as const)
        if (m[name] === undefined)
          ctx.addIssue({ code: 'custom', path: [name], message: 'send length, width and height together' });
  });
export type TMeasured = z.output<typeof ZMeasured>;

/** Either a status to walk to, or a customs outcome to record (with an optional text: what customs said). */
export const ZSimulateRequest = z
  .strictObject({
    status: oneOf(ALL_STATUSES).meta({ description: 'The status to walk to. Send this or `customs`.' }),
    customs: oneOf(CUSTOMS_OUTCOMES).meta({
      description:
        'A customs outcome to record on the package, on the container itself, or on each package of a daily manifest (sent as `customs.<outcome>`). Send this or `status`.',
    }),
    code: text({ max: 64 }).meta({ description: "An exception's code (with `status: exception`)." }),
    text: text({ max: 500 }).meta({ description: "An exception's text, or what customs said with `customs`." }),
    measured: ZMeasured.optional().meta({
      description:
        'What the hub measured when the walk passes `received` (weight and weight_unit, and/or length, width and height in inches): the package is re-rated on them, a difference being an adjustment (`package.adjusted`).',
    }),
  })
  .superRefine((body, ctx) => {
    if ((body.status === undefined) === (body.customs === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: 'send either status (a walk) or customs (an outcome), one of them',
      });
    if (body.measured !== undefined && body.status === undefined)
      ctx.addIssue({ code: 'custom', path: ['measured'], message: 'goes with a status walk that passes received' });
    if (body.customs !== undefined && body.code !== undefined)
      ctx.addIssue({ code: 'custom', path: ['code'], message: "is an exception's code: not sent with customs" });
  });

const LOCATION = /^(?:[A-Z]{3}|\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)$/;
const SCAN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const OCCURRED_AT = /^(20\d{2})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

// One scan of POST /ops/scans; each is validated on its own, so one bad scan is refused alone.
export const ZScan = z
  .strictObject({
    scan_id: z.string().regex(SCAN_ID, 'must be 1 to 128 characters: letters, digits and . _ : -'),
    // The package by our barcode (the label's sort barcode): always one package, whatever tracking numbers shippers sent.
    carrier_barcode: z
      .string()
      .max(32)
      .refine(isCarrierBarcode, 'must be a carrier barcode: CB, 12 digits and a check digit, as printed on the label')
      .transform(normalizeCarrierBarcode)
      .optional(),
    tracking_number: trackingNumber(),
    // Alone, the container's own scan; beside tracking_number, the container whose package that is.
    container_id: text({ max: 128 }),
    // Beside tracking_number: the manifest whose package that is.
    manifest_id: text({ max: 128 }),
    event: z.string().max(32),
    location: z.string().max(10).regex(LOCATION, 'must be an IATA airport code (JFK) or a US or Canadian postal code'),
    occurred_at: z
      .string()
      .max(40)
      .regex(OCCURRED_AT, 'must be an ISO 8601 date-time with a time zone, in the years 2000 to 2099')
      .refine((value) => {
        // Date.parse rolls an impossible day over (2026-02-30 is 2 March), so the day is checked as written.
        const [, year = '', month = '', day = '', hour = '', minute = '', second = ''] = OCCURRED_AT.exec(value) ?? [];
        if (
          calendarDayViolation(year, month, day) !== undefined ||
          Number(hour) > 23 ||
          Number(minute) > 59 ||
          Number(second) > 59
        )
          return false;
        return !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().slice(0, 10) >= '2000-01-01';
      }, 'is not a real date-time')
      .refine((value) => !(Date.parse(value) > Date.now() + 24 * 3_600_000), 'is more than a day in the future'),
    exception_code: text({ max: 64 }),
    exception_text: text({ max: 500 }),
    // A customs outcome's (event assessment_complete, …, released): the authority's reference and what it said.
    customs_reference: text({ max: 70 }),
    customs_text: text({ max: 500 }),
    measured: ZMeasured.optional(),
    // With a delivered scan: who signed, and the signature and photo as base64 (checked by lib/proof-of-delivery/images.ts).
    proof_of_delivery: z
      .strictObject({
        recipient_name: text({ max: 100 }),
        signature: z.string().optional(),
        photo: z.string().optional(),
      })
      .optional(),
  })
  .superRefine((scan, ctx) => {
    if (scan.proof_of_delivery !== undefined && scan.event !== 'delivered')
      ctx.addIssue({ code: 'custom', path: ['proof_of_delivery'], message: 'goes with a delivered scan' });
    if (scan.measured !== undefined && scan.event !== 'received')
      ctx.addIssue({
        code: 'custom',
        path: ['measured'],
        message: 'goes with a received scan (what the hub measured on intake)',
      });
    if (
      (scan.customs_reference !== undefined || scan.customs_text !== undefined) &&
      !(CUSTOMS_OUTCOMES as readonly string[]).includes(scan.event)
    )
      ctx.addIssue({
        code: 'custom',
        path: [scan.customs_reference !== undefined ? 'customs_reference' : 'customs_text'],
        message: `goes with a customs outcome (event ${CUSTOMS_OUTCOMES.join(', ')})`,
      });
    const subject = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (scan.carrier_barcode !== undefined) {
      if (scan.tracking_number !== undefined || scan.container_id !== undefined || scan.manifest_id !== undefined)
        subject('a carrier_barcode names one package alone: send no tracking_number, container_id or manifest_id with it');
    } else if (scan.tracking_number !== undefined) {
      if (scan.container_id !== undefined && scan.manifest_id !== undefined)
        subject('narrow a tracking_number by container_id or by manifest_id, not both');
    } else if (scan.container_id === undefined) {
      subject('name the package (carrier_barcode, or tracking_number) or the container (container_id)');
    }
  });

export const ZScanBatch = z.strictObject({
  scans: z
    .unknown()
    .transform((value, ctx): unknown[] => {
      if (!Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be an array of scans' });
        return z.NEVER;
      }
      if (value.length === 0 || value.length > SCAN_BATCH_MAX) {
        ctx.addIssue({ code: 'custom', message: `must hold 1 to ${SCAN_BATCH_MAX} scans (got ${value.length})` });
        return z.NEVER;
      }
      return value as unknown[];
    })
    .meta({ type: 'array', minItems: 1, maxItems: SCAN_BATCH_MAX, items: { type: 'object' } }),
});

// ---------------------------------------------------------------- responses

const iso = z.string().meta({ format: 'date-time' });
/** Null only for a stored value JavaScript cannot represent (never a 500 for it). */
const storedIso = iso.nullable();

export const ZPackageResponse = z.looseObject({
  object: z.literal('package'),
  TrackingNumber: z.string().nullable(),
  carrier_barcode: z.string().meta({
    description:
      "Ours, on every package: the label's sort barcode (CB, 12 digits, a Luhn check digit); scans by it are never ambiguous.",
    examples: ['CB4829103756125'],
  }),
  tracking_url: z
    .string()
    .nullable()
    .meta({
      description:
        "The package's public tracking page (by its carrier barcode, under the app's public address): the link to give its recipient. A test package's is the test page (`/track/test/…`), which says it is a test package and not a real shipment.",
      examples: ['https://carrier.example/track/CB4829103756125'],
    }),
  house_waybill: z.string().meta({
    description:
      "The house waybill under the master AWB: the shipper's `Customs.HouseWaybill`, or, when it sent none, issued by the carrier (H, 10 digits, a Luhn check digit: unique across the carrier, never reused).",
    examples: ['H40723918566'],
  }),
  ManifestID: z.string(),
  ContainerID: z.string().nullable().optional(),
  manifest_type: z.enum(['container', 'daily']),
  status: z.enum(PACKAGE_STATUSES),
  status_updated_at: storedIso,
  customs_status: z
    .enum(CUSTOMS_OUTCOMES)
    .nullable()
    .meta({ description: 'The latest customs outcome recorded on the package (null: none yet).' }),
  customs_status_updated_at: storedIso,
  offloaded_at: storedIso.optional().meta({
    description:
      'Present once the house, held by customs, was offloaded from its container before departure (POST /packages/{TrackingNumber}/offload): the container departs without it.',
  }),
  charge: ZCharge.nullable().meta({
    description:
      'What the package costs (priced at acceptance, re-rated on what the hub measured, voided when cancelled before possession); null for a package accepted before pricing.',
  }),
  created_at: storedIso,
  returns: z
    .array(
      z.object({
        tracking_number: z.string().nullable(),
        carrier_barcode: z.string(),
        status: z.string(),
        created_at: z.string(),
      }),
    )
    .optional()
    .meta({ description: 'GET and POST …/return only: the return packages made for this package, oldest first.' }),
  return_of: z
    .object({ tracking_number: z.string().nullable(), carrier_barcode: z.string() })
    .nullable()
    .optional()
    .meta({ description: 'GET and POST …/return only: the package this one returns (null: not a return).' }),
});

export const ZManifestResponse = z.looseObject({
  object: z.literal('manifest'),
  ManifestID: z.string(),
  type: z.enum(['container', 'daily']),
  /** A container's: its own, as the header of the request also holds them (every header field is in the answer). */
  ContainerID: z.string().optional(),
  ServiceName: z.string().optional(),
  /** A container: ManifestDate's instant. A daily manifest: its day, YYYY-MM-DD. */
  ManifestDate: z.string().nullable(),
  manifest_date_defaulted: z
    .boolean()
    .meta({ description: 'The container was sent without a ManifestDate: it is the day it was received.' }),
  services: z.array(z.string()).meta({
    description:
      "A container's ServiceName; a daily manifest's packages' services, first seen first (kept on the manifest as packages arrive).",
  }),
  PackageCount: z.number().int(),
  status: z.string(),
  status_updated_at: storedIso,
  customs_status: z
    .enum(CUSTOMS_OUTCOMES)
    .nullable()
    .optional()
    .meta({ description: "A container's own latest customs outcome (null: none yet); a daily manifest has none." }),
  created_at: storedIso,
  totals: z
    .object({ package_count: z.number().int(), by_status: z.record(z.string(), z.number().int()), total_weight_lb: z.string() })
    .optional(),
});

/** A package re-rated on what the hub measured (lib/billing/adjust.ts): in its timeline and its package.adjusted webhook. */
export const ZAdjustment = z.object({
  amount: z.string().meta({ description: 'after − before, two decimals (negative: a credit).', examples: ['3.15'] }),
  before: z.string(),
  after: z.string(),
  currency: z.string(),
  reason: z.enum(['weight', 'dimensions', 'service']),
  scan_id: z.string().nullable(),
  card_version: z.number().int(),
  billable_weight: z.object({ before: z.string().nullable(), after: z.string() }),
});
export type TAdjustment = z.output<typeof ZAdjustment>;

export const ZEventResponse = z.object({
  object: z.literal('event'),
  id: z.string(),
  type: z.string(),
  status: z.string(),
  previous_status: z.string().nullable(),
  applied: z.boolean(),
  occurred_at: storedIso,
  location: z.string().nullable(),
  source: z.enum(['scan', 'simulator', 'cancel', 'api', 'cutoff']),
  scan_id: z.string().nullable(),
  exception: z.object({ code: z.string().nullable(), text: z.string().nullable() }).nullable(),
  customs: z
    .object({ reference: z.string().nullable(), text: z.string().nullable() })
    .optional()
    .meta({ description: "A customs outcome's (type customs.<outcome>): the authority's reference and what it said." }),
  amended_fields: z
    .array(z.string())
    .optional()
    .meta({ description: "An amendment's (type package.amended): the fields it changed." }),
  adjustment: ZAdjustment.optional().meta({
    description: "A re-rating's (type package.adjusted): the charge before and after what the hub measured, and why.",
  }),
  created_at: storedIso,
});

export const ZListPackagesResponse = keysetList(ZPackageResponse);
export const ZListManifestsResponse = keysetList(ZManifestResponse);
export const ZListEventsResponse = keysetList(ZEventResponse);

export type TManifestResponse = z.output<typeof ZManifestResponse>;

export const ZScanResult = z.object({
  scan_id: z.string(),
  result: z.enum(['applied', 'recorded', 'duplicate', 'refused']),
  status: z.string().optional(),
  previous_status: z.string().optional(),
  current_status: z.string().optional(),
  reason: z.enum(['out_of_order', 'repeat']).optional(),
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      current_status: z.string().optional(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    })
    .optional(),
});

export const ZScanBatchResponse = z.object({
  object: z.literal('scan_batch'),
  applied: z.number().int(),
  recorded: z.number().int(),
  duplicate: z.number().int(),
  refused: z.number().int(),
  results: z.array(ZScanResult),
});

export type TScanBatchResponse = z.output<typeof ZScanBatchResponse>;

export { LIFECYCLE_WEBHOOK_EVENTS } from './webhooks';

export const ZLifecycleWebhookPayload = z.object({
  // The event's name (package.delivered, manifest.closed, …), covered by the signature.
  type: z.string(),
  // A package's event names it by all three (its tracking number may be null: a container package without one).
  tracking_number: z.string().nullable().optional(),
  carrier_barcode: z.string().optional(),
  // The package's public tracking page (null in test): events written before it existed do not carry it.
  tracking_url: z.string().nullable().optional(),
  house_waybill: z.string().optional(),
  container_id: z.string().optional(),
  manifest_id: z.string(),
  status: z.string(),
  previous_status: z.string().nullable(),
  occurred_at: iso,
  location: z.string().nullable(),
  exception: z.object({ code: z.string().nullable(), text: z.string().nullable() }).optional(),
  // manifest.closed only (close-out): its packages, its handover document's API path, and who closed it.
  package_count: z.number().int().optional(),
  document_path: z.string().optional(),
  closed_by: z.enum(['shipper', 'cutoff']).optional(),
});

/** package.adjusted (lib/status/engine.ts webhookPayload): the package re-rated on what the hub measured. */
export const ZPackageAdjustedPayload = z.object({
  type: z.string(),
  tracking_number: z.string().nullable(),
  carrier_barcode: z.string(),
  tracking_url: z.string().nullable().optional(),
  house_waybill: z.string(),
  container_id: z.string().optional(),
  manifest_id: z.string(),
  status: z.string(),
  occurred_at: iso,
  adjustment: ZAdjustment,
});
