import { z } from 'zod';
import { MAX_CONTAINER_PACKAGES } from './container-manifest';
import { keysetList } from './list';
import { oneOf, text } from './fields';
import { fieldTree, ZWarnings } from './unknown-fields';

export const PICKUP_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;

const ZPickupAddress = z
  .object({
    name: text({ max: 100 }),
    company: text({ required: true, max: 100 }),
    address1: text({ required: true, max: 200 }),
    address2: text({ max: 200 }),
    city: text({ required: true, max: 100 }),
    state: text({ required: true, max: 100 }),
    postal_code: text({ required: true, max: 20 }),
    country: text({ max: 100 }),
    phone: text({ max: 40 }),
  })
  .meta({
    description: 'Where the driver collects. Checked as POST /addresses/validate checks one: a disagreement is a warning.',
  });

const ZPickupFields = z.object({
  manifest_id: text({ max: 64 }),
  tracking_numbers: z
    .array(text({ required: true, max: 100 }))
    .max(MAX_CONTAINER_PACKAGES, `at most ${MAX_CONTAINER_PACKAGES.toLocaleString('en-US')} packages a pickup`)
    .optional()
    .meta({ description: 'Tracking numbers or carrier barcodes; instead of manifest_id.' }),
  address: ZPickupAddress,
  ready_at: text({ required: true, max: 40 }).meta({
    description: 'When the packages are ready: an ISO 8601 date-time with its offset.',
    examples: ['2026-12-01T13:00:00-05:00'],
  }),
  close_at: text({ required: true, max: 40 }).meta({
    description: 'When the place closes: an ISO 8601 date-time with its offset.',
    examples: ['2026-12-01T17:00:00-05:00'],
  }),
  instructions: text({ max: 500, multiline: true }),
});

export const ZSchedulePickupRequest = ZPickupFields;
export type TSchedulePickupRequest = z.output<typeof ZSchedulePickupRequest>;
export const PICKUP_FIELDS = fieldTree(ZPickupFields.shape, {});

export const ZPickup = z.object({
  id: z.string().meta({ examples: ['pu_4k2m9x7q1c3v5b8n6z0w2e4r'] }),
  object: z.literal('pickup'),
  status: z.enum(PICKUP_STATUSES),
  manifest_id: z.string().nullable(),
  package_count: z.number().int(),
  tracking_numbers: z
    .array(z.string())
    .meta({ description: "The packages' tracking numbers (their carrier barcode when they have none)." }),
  address: z.record(z.string(), z.string()),
  ready_at: z.string(),
  close_at: z.string(),
  instructions: z.string(),
  created_at: z.string(),
  status_updated_at: z.string(),
  warnings: ZWarnings,
});
export type TPickup = z.output<typeof ZPickup>;

export const ZListPickupsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
  status: oneOf(PICKUP_STATUSES),
});

export const ZListPickupsResponse = keysetList(ZPickup);

export const ZPickupEventPayload = z.object({
  type: z.enum(['pickup.scheduled', 'pickup.cancelled', 'pickup.completed']),
  pickup_id: z.string(),
  status: z.enum(PICKUP_STATUSES),
  manifest_id: z.string().nullable(),
  package_count: z.number().int(),
  ready_at: z.string(),
  close_at: z.string(),
});
