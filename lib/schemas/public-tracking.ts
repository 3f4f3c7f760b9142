import { z } from 'zod';
import { PACKAGE_STATUSES } from './statuses';

// Public tracking (docs/decisions/public-tracking.md): nothing here may name an address, a phone, an e-mail, contents,
// a reference, a customs value or the account; only what the label shows and city-level places.

/** The statuses at which a shipper may have its recipients e-mailed. */
export const RECIPIENT_MAIL_STATUSES = ['out_for_delivery', 'delivered', 'exception'] as const;
export type RecipientMailStatus = (typeof RECIPIENT_MAIL_STATUSES)[number];

export const ZRecipientMailSettings = z.strictObject({
  statuses: z
    .array(z.enum(RECIPIENT_MAIL_STATUSES, { error: `must be one of ${RECIPIENT_MAIL_STATUSES.join(', ')}` }), {
      error: `must be a list of statuses: ${RECIPIENT_MAIL_STATUSES.join(', ')}`,
    })
    .max(RECIPIENT_MAIL_STATUSES.length, `must list each of ${RECIPIENT_MAIL_STATUSES.join(', ')} at most once`)
    .refine((list) => new Set(list).size === list.length, 'must list each status at most once'),
});
export type TRecipientMailSettings = z.output<typeof ZRecipientMailSettings>;

const ZPlace = z.object({
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
});

const ZPublicEvent = z.object({
  status: z.enum(PACKAGE_STATUSES),
  description: z.string(),
  occurred_at: z.string(),
  /** City-level: an airport's city, a postal code's city; never a street. */
  location: z.string().nullable(),
});

export const ZPublicTrackingResponse = z.object({
  object: z.literal('tracking'),
  /** `test`: a test package, on the test page only (/track/test/…): not a real shipment. */
  environment: z.enum(['live', 'test']),
  carrier_barcode: z.string(),
  tracking_number: z.string().nullable(),
  status: z.enum(PACKAGE_STATUSES),
  status_description: z.string(),
  status_updated_at: z.string(),
  /** The sender's company as printed on the label (FromCompany). */
  shipper: z.string().nullable(),
  service: z.string().nullable(),
  destination: ZPlace.nullable(),
  /** A day YYYY-MM-DD from the service's transit days, while the package is on its way and the day is still ahead. */
  estimated_delivery: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** Oldest first; the first is when the shipper told us about the package. */
  events: z.array(ZPublicEvent),
});
export type TPublicTracking = z.output<typeof ZPublicTrackingResponse>;
export type TPublicTrackingEvent = z.output<typeof ZPublicEvent>;
