import { z } from 'zod';
import { ZContainerPackage } from './container-manifest';
import { CUSTOMS_OUTCOMES } from './statuses';

// The customs operations' own shapes (lib/api/operations with tag Customs): the amendment's body, the readiness
// answer and the customs webhooks' payloads. The OpenAPI document is generated from these.

/** What PATCH /packages/{TrackingNumber} may change: the house data customs reads, the declaration and the consignee. */
export const AMENDABLE_FIELDS = [
  'Customs',
  'ToName',
  'ToPhone',
  'ToEmail',
  'ToAddress1',
  'ToAddress2',
  'ToCity',
  'ToState',
  'ToPostalCode',
  'ToCountry',
] as const;
export type AmendableField = (typeof AMENDABLE_FIELDS)[number];

const consignee = ZContainerPackage.pick({
  ToName: true,
  ToPhone: true,
  ToEmail: true,
  ToAddress1: true,
  ToAddress2: true,
  ToCity: true,
  ToState: true,
  ToPostalCode: true,
  ToCountry: true,
});

/** The amendment as documented; lib/customs/amend-package.ts reads it field by field with these same builders. */
export const ZAmendPackageRequest = consignee
  .extend({
    Customs: z
      .unknown()
      .meta({
        type: ['object', 'string', 'null'],
        description:
          'A merge patch of the declaration (RFC 7396, one level): each field sent replaces the stored one, null or "" removes it, `Items` replaces the list whole; the result is checked as at acceptance. `null` or "" removes the declaration. Without `HouseWaybill` (or after removing it) the carrier issues one; the package\'s own issued one sent back changes nothing.',
        examples: [
          { Items: [{ Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' }] },
        ],
      })
      .optional(),
  })
  .meta({
    description:
      'The house data to change: any of these fields, nothing else (another field is a 422 naming it). A consignee field set to null or "" is removed, except a daily package\'s ToPostalCode, which can be changed only.',
    minProperties: 1,
    additionalProperties: false,
  });

const iso = z.string().meta({ format: 'date-time' });

export const ZReadinessProblem = z.object({
  row: z.number().int().nullable().meta({
    description: "The package's ContainerDetails index (a daily manifest's: its place in arrival order); null for the master.",
  }),
  tracking_number: z.string().nullable(),
  path: z.string().meta({ examples: ['ContainerDetails[3].ToPhone', 'AWB'] }),
  field: z.string().meta({ description: 'The field, without the package: ToPhone, Customs.Items[0].HSCode, AWB.' }),
  code: z.enum(['missing', 'invalid']),
  message: z.string(),
});
export type TReadinessProblem = z.output<typeof ZReadinessProblem>;

/** The destination regimes readiness is computed for (lib/customs/readiness.ts REGIMES), as the API names them. */
export const CUSTOMS_REGIMES = ['eu_ics2_placi', 'eu_ics2_ens', 'us_acas', 'us_enhanced_acas', 'ca_emanifest'] as const;
export type CustomsRegime = (typeof CUSTOMS_REGIMES)[number];

export const ZRegimeReadiness = z.object({
  regime: z.enum(CUSTOMS_REGIMES),
  name: z.string(),
  applies: z.boolean().meta({ description: "Some house of the manifest enters this regime's territory from outside it." }),
  countries: z.array(z.string()).meta({ description: 'The destination countries (ISO 3166-1) that bring the regime in.' }),
  package_count: z.number().int().meta({ description: 'The houses the regime applies to.' }),
  ready: z.boolean().meta({ description: 'Nothing missing or invalid (true too when the regime does not apply).' }),
  deadline: iso.nullable().meta({ description: 'When the filing is due, from the flight; null without one.' }),
  deadline_basis: z.string().meta({ description: 'How the deadline was computed, in words.' }),
  deadline_passed: z.boolean(),
  problem_count: z.number().int(),
  houses_not_ready: z.number().int().meta({
    description:
      "The houses with a problem of their own for this regime (the master's are not counted here): what `GET /packages?manifest_id=…&customs_not_ready=<regime>` lists.",
  }),
  problems_truncated: z.number().int().meta({ description: 'Problems counted but not listed (more than 25,000).' }),
  by_field: z.record(z.string(), z.number().int()).meta({ description: 'Problems by field, indexes left out, most first.' }),
  problems: z.array(ZReadinessProblem).meta({ description: "The master's problems first, then each house's in manifest order." }),
});
export type TRegimeReadiness = z.output<typeof ZRegimeReadiness>;

const ZHouse = z.object({
  row: z.number().int(),
  tracking_number: z.string().nullable(),
  carrier_barcode: z.string(),
  house_waybill: z.string(),
});

export const ZCustomsReadinessResponse = z.object({
  object: z.literal('customs_readiness'),
  ManifestID: z.string(),
  type: z.enum(['container', 'daily']),
  ready: z.boolean().meta({ description: 'Every regime that applies is ready.' }),
  computed_at: iso,
  package_count: z.number().int(),
  AWB: z.string().nullable(),
  ULD: z.string().nullable(),
  FlightNumber: z.string().nullable(),
  FlightDate: z.string().nullable(),
  OriginAirport: z.string().nullable(),
  DestinationAirport: z.string().nullable(),
  origin_country: z.string().nullable(),
  destination_country: z.string().nullable().meta({
    description: "The flight's arrival country (from DestinationAirport); null when each house's own ToCountry decides.",
  }),
  customs_status: z
    .record(z.string(), z.number().int())
    .meta({ description: 'Houses by their latest customs outcome (`none`: no outcome yet).' }),
  do_not_load: z.array(ZHouse).meta({ description: 'The houses on do_not_load: the container cannot depart with them.' }),
  regimes: z.array(ZRegimeReadiness),
});
export type TCustomsReadiness = z.output<typeof ZCustomsReadinessResponse>;

/** customs.<outcome>: an outcome recorded on a package (tracking number, barcode, house waybill) or on a container. */
export const ZCustomsWebhookPayload = z.object({
  type: z.string(),
  tracking_number: z.string().nullable().optional(),
  carrier_barcode: z.string().optional(),
  tracking_url: z.string().nullable().optional(),
  house_waybill: z.string().optional(),
  container_id: z.string().optional(),
  manifest_id: z.string(),
  outcome: z.enum(CUSTOMS_OUTCOMES),
  previous_outcome: z.enum(CUSTOMS_OUTCOMES).nullable(),
  occurred_at: iso,
  location: z.string().nullable(),
  reference: z.string().nullable(),
  text: z.string().nullable(),
});

/** package.amended: a package's house data changed (PATCH /packages/{TrackingNumber}). */
export const ZPackageAmendedPayload = z.object({
  type: z.string(),
  tracking_number: z.string().nullable(),
  carrier_barcode: z.string(),
  tracking_url: z.string().nullable().optional(),
  house_waybill: z.string(),
  container_id: z.string().optional(),
  manifest_id: z.string(),
  status: z.string(),
  occurred_at: iso,
  fields: z.array(z.string()).meta({ description: 'What changed: ToPhone, Customs.Items, Customs.HouseWaybill, …' }),
  previous_house_waybill: z.string().optional().meta({ description: 'When the house waybill changed: the one before.' }),
});

/** package.offloaded: a house held by customs taken out of its container before departure (POST /packages/{TrackingNumber}/offload). */
export const ZPackageOffloadedPayload = z.object({
  type: z.string(),
  tracking_number: z.string().nullable(),
  carrier_barcode: z.string(),
  house_waybill: z.string(),
  container_id: z.string().optional(),
  manifest_id: z.string(),
  status: z.string().meta({ description: "The house's status, which the offload leaves as it was." }),
  occurred_at: iso,
  customs_status: z.enum(CUSTOMS_OUTCOMES).nullable().meta({ description: 'The outcome that held it.' }),
});

/** container.amended: a container's air cargo header changed (PATCH /manifests/{id}). */
export const ZContainerAmendedPayload = z.object({
  type: z.string(),
  container_id: z.string(),
  manifest_id: z.string(),
  status: z.string(),
  occurred_at: iso,
  fields: z.array(z.string()).meta({ description: 'What changed: FlightNumber, FlightDate, AWB, …' }),
});

/** The portal's customs setting: hold a live container's departure until its readiness holds. */
export const ZCustomsSettings = z.strictObject({
  enforce_readiness: z.boolean({ error: 'must be true or false' }),
});
export type TCustomsSettings = z.output<typeof ZCustomsSettings>;
