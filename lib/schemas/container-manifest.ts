import { z } from 'zod';
import { CUSTOMS_FIELDS, customs, flightNumber, security, SECURITY_FIELDS, uld } from './customs';
import { awb, decimal, email, iataCode, isoDate, isoDateTime, oneOf, postalCode, text, trackingNumber } from './fields';
import { compiled } from './compiled';
import { MAX_ERROR_DETAILS, omittedIssues, type Aliases } from './parse';
import { fieldTree, ZWarnings } from './unknown-fields';
import { quoteId } from './rate';

export const MAX_CONTAINER_PACKAGES = 5_000;
export const PACKAGE_WEIGHT_UNITS = ['lb', 'kg', 'oz'] as const;

/** Published spellings: the field list and the sample body disagree on these names. */
export const CONTAINER_MANIFEST_ALIASES: Aliases = {
  FromPostalCode: ['FromPostalcode'],
  ContainerWeight: ['Container Weight'],
  ContainerName: ['Container Name'],
};

const ZContainerDetailCells = z.object({
  TrackingNumber: trackingNumber(),
  PackageWeight: decimal({ maxDecimals: 3, max: 10_000 }),
  PackageWeightUnit: oneOf(PACKAGE_WEIGHT_UNITS),
  PackageSizeLength: decimal({ maxDecimals: 2, max: 1_000 }),
  PackageSizeWidth: decimal({ maxDecimals: 2, max: 1_000 }),
  PackageSizeHeight: decimal({ maxDecimals: 2, max: 1_000 }),
  ToName: text(),
  ToPhone: text({ max: 40 }),
  ToEmail: email(),
  ToAddress1: text(),
  ToAddress2: text(),
  ToCity: text({ max: 100 }),
  ToState: text({ max: 100 }),
  ToPostalCode: postalCode(),
  ToCountry: text({ max: 100 }),
});

/** Each parcel is a house waybill under the container's AWB. */
export const ZContainerPackage = ZContainerDetailCells.extend({ Customs: customs(), QuoteID: quoteId() });
export type TContainerDetail = z.output<typeof ZContainerPackage>;

/**
 * The text fields alone, since the portal's grid makes one text cell of each; the metadata documents Customs too,
 * so the OpenAPI ContainerDetail shows every field a request may send.
 */
export const ZContainerDetail = ZContainerDetailCells.meta({
  properties: (z.toJSONSchema(ZContainerPackage, { io: 'input', unrepresentable: 'any' }) as { properties: unknown }).properties,
});

/**
 * Read within a memory budget: the length is checked before any item, and items one at a time, keeping at most
 * MAX_ERROR_DETAILS errors: 5,000 packages with every field wrong cost a hundred errors, not 75,000.
 */
function packageList() {
  const trackingNumber = ZContainerPackage.shape.TrackingNumber;
  let containerPackage: typeof ZContainerPackage | undefined;
  return z
    .unknown()
    .transform((value, ctx): TContainerDetail[] | undefined => {
      if (value === undefined || value === null || value === '') return undefined;
      if (!Array.isArray(value)) {
        ctx.addIssue({ code: 'custom', message: 'must be an array of packages' });
        return z.NEVER;
      }
      if (value.length > MAX_CONTAINER_PACKAGES) {
        ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_CONTAINER_PACKAGES} packages (got ${value.length})` });
        return z.NEVER;
      }
      const packages: TContainerDetail[] = [];
      const firstIndex = new Map<string, number>();
      const firstHouse = new Map<string, number>();
      let kept = 0;
      let omitted = 0;
      const report = (issue: z.core.$ZodIssue, index: number) => {
        if (kept++ < MAX_ERROR_DETAILS) ctx.addIssue({ ...issue, path: [index, ...issue.path] });
        else omitted++;
      };
      value.forEach((item, index) => {
        const result = (containerPackage ??= compiled(ZContainerPackage)).safeParse(item, { reportInput: true });
        if (result.success) packages.push(result.data);
        else for (const issue of result.error.issues) report(issue, index);
        // Each parcel is one house under the container's AWB: a house waybill twice in one container names two.
        const house = result.data?.Customs?.HouseWaybill;
        if (house !== undefined) {
          const seenHouse = firstHouse.get(house);
          if (seenHouse === undefined) firstHouse.set(house, index);
          else
            report(
              {
                code: 'custom',
                path: ['Customs', 'HouseWaybill'],
                message: `duplicates ContainerDetails[${seenHouse}].Customs.HouseWaybill: each parcel is a house of its own`,
                input: house,
              },
              index,
            );
        }
        // A tracking number identifies one package, in any case: twice in one container is a mistake.
        const tn = (
          result.success
            ? result.data.TrackingNumber
            : trackingNumber.safeParse((item as { TrackingNumber?: unknown } | null)?.TrackingNumber).data
        )?.toLowerCase();
        if (!tn) return;
        const seen = firstIndex.get(tn);
        if (seen === undefined) firstIndex.set(tn, index);
        else
          report(
            {
              code: 'custom',
              path: ['TrackingNumber'],
              message: `duplicates ContainerDetails[${seen}].TrackingNumber`,
              input: tn,
            },
            index,
          );
      });
      if (omitted > 0) ctx.addIssue(omittedIssues(omitted));
      return packages;
    })
    .meta({ type: 'array', maxItems: MAX_CONTAINER_PACKAGES, description: 'The packages in the container.' })
    .optional();
}

// POST /wf/manifest: an air-cargo container, its AWB and the packages inside.
const ZContainerManifestFields = z.object({
  ManifestDate: isoDateTime(),
  ServiceName: text({ required: true, max: 100 }),
  FromName: text(),
  FromCompany: text({ required: true }),
  FromPhone: text({ max: 40 }),
  FromEmail: email(),
  FromAddress1: text(),
  FromAddress2: text(),
  FromCity: text({ max: 100 }),
  FromState: text({ max: 100 }),
  FromPostalCode: text({ max: 20 }),
  FromCountry: text({ max: 100 }),
  FromTerminal: text({ max: 100 }),
  ToTerminal: text({ max: 100 }),
  Consignee: text(),
  SortCode: text({ max: 100 }),
  FinalMileCarrier: text({ max: 100 }),
  ContainerID: text({ required: true, max: 100 }),
  ContainerCount: text({ max: 20 }),
  ContainerWeight: decimal({ maxDecimals: 3, max: 100_000 }),
  ContainerName: text({ max: 100 }),
  ContainerLength: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  ContainerWidth: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  ContainerHeight: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  ShipmentDescription: text({ required: true, max: 1_000, multiline: true }),
  AWB: awb(),
  Reference1: text(),
  Reference2: text(),
  Reference3: text(),
  Reference4: text(),
  ContainerDetails: packageList(),
  // ContainerID stays free text; without ULD, a ULD-shaped ContainerID is the ULD, derived, never stored.
  ULD: uld(),
  SealNumber: text({ max: 35 }),
  FlightNumber: flightNumber(),
  FlightDate: isoDate(),
  OriginAirport: iataCode(),
  DestinationAirport: iataCode(),
  Security: security(),
  // A quote for every package that names none of its own (lib/billing/quote-id.ts).
  QuoteID: quoteId(),
});

/** A container's air cargo header, amendable until it departs (PATCH /manifests/{id}): each checked as at acceptance. */
export const CONTAINER_AMENDABLE_FIELDS = [
  'AWB',
  'ULD',
  'SealNumber',
  'FlightNumber',
  'FlightDate',
  'OriginAirport',
  'DestinationAirport',
  'Security',
] as const;
export type ContainerAmendableField = (typeof CONTAINER_AMENDABLE_FIELDS)[number];
export const ZContainerAmendment = ZContainerManifestFields.pick({
  AWB: true,
  ULD: true,
  SealNumber: true,
  FlightNumber: true,
  FlightDate: true,
  OriginAirport: true,
  DestinationAirport: true,
  Security: true,
});

export const ZContainerManifestRequest = ZContainerManifestFields.transform(({ ContainerDetails, ...header }) => ({
  header,
  packages: ContainerDetails ?? [],
}));

/** What POST /wf/manifest reads, for naming what it ignored. */
export const CONTAINER_MANIFEST_FIELDS = fieldTree(ZContainerManifestFields.shape, CONTAINER_MANIFEST_ALIASES, {
  ContainerDetails: fieldTree(ZContainerPackage.shape, {}, { Customs: CUSTOMS_FIELDS }),
  Security: SECURITY_FIELDS,
});

export type TContainerManifestRequest = z.output<typeof ZContainerManifestRequest>;

// The answer to POST /wf/manifest: IsSuccess is the text "true", as published.
export const ZContainerManifestResponse = z.object({
  IsSuccess: z.literal('true'),
  ManifestID: z.string().meta({ examples: ['MAN-7K3Q9X2M4T8V6W1Z'] }),
  PackageCount: z.number().int().min(0).meta({ description: 'The packages the container holds (none is allowed).' }),
  ChargeTotal: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .optional()
    .meta({
      description: "What the priced packages cost together, two decimals as text (each package's `charge` is in its reads).",
    }),
  Currency: z
    .string()
    .optional()
    .meta({ examples: ['USD'] }),
  PricedCount: z.number().int().min(0).optional().meta({ description: 'Packages priced at acceptance.' }),
  UnpricedCount: z.number().int().min(0).optional().meta({
    description:
      'Packages accepted unpriced (no card for the service, a lane the card cannot price, no weight): each read says why.',
  }),
  warnings: ZWarnings,
});

export type TContainerManifestResponse = z.output<typeof ZContainerManifestResponse>;
