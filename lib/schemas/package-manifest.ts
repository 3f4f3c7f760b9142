import { z } from 'zod';
import { CUSTOMS_FIELDS, customs } from './customs';
import { awb, decimal, email, integer, isoDateTime, oneOf, postalCode, text, trackingNumber } from './fields';
import type { Aliases } from './parse';
import { fieldTree, ZWarnings } from './unknown-fields';
import { quoteId, ZCharge } from './rate';

export const PACKAGE_MANIFEST_ALIASES: Aliases = {
  FromPostalCode: ['FromPostalcode'],
  ContainerWeight: ['Container Weight'],
  ContainerName: ['Container Name'],
  WeightUnit: ['PackageWeightUnit'],
};

export const ZPackage = z.object({
  TrackingNumber: trackingNumber({ required: true }),
  FinalMileCarrier: text({ required: true, max: 100 }),
  ManifestDate: isoDateTime({ required: true }),
  ServiceName: text({ required: true, max: 100 }),
  FromName: text(),
  FromCompany: text({ required: true }),
  FromPhone: text({ max: 40 }),
  FromEmail: email(),
  FromAddress1: text({ required: true }),
  FromAddress2: text(),
  FromCity: text({ required: true, max: 100 }),
  FromState: text({ required: true, max: 100 }),
  FromPostalCode: postalCode({ required: true }),
  FromCountry: text({ required: true, max: 100 }),
  FromTerminal: text({ max: 100 }),
  ToTerminal: text({ max: 100 }),
  Consignee: text(),
  SortCode: text({ max: 100 }),
  ToName: text(),
  ToPhone: text({ max: 40 }),
  ToEmail: email(),
  ToAddress1: text(),
  ToAddress2: text(),
  ToCity: text({ max: 100 }),
  ToState: text({ max: 100 }),
  ToPostalCode: postalCode({ required: true }),
  ToCountry: text({ max: 100 }),
  ShipmentDescription: text({ required: true, max: 1_000, multiline: true }),
  PackageSizeLength: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  PackageSizeWidth: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  PackageSizeHeight: decimal({ required: true, maxDecimals: 2, max: 1_000 }),
  PackageWeight: decimal({ required: true, maxDecimals: 3, max: 10_000 }),
  WeightUnit: oneOf(['lb', 'kg'] as const, { required: true }),
  ContainerID: text({ max: 100 }),
  ContainerCount: integer({ min: 0, max: 100_000 }),
  ContainerWeight: decimal({ maxDecimals: 3, max: 100_000 }),
  ContainerName: text({ max: 100 }),
  ContainerLength: decimal({ maxDecimals: 2, max: 1_000 }),
  ContainerWidth: decimal({ maxDecimals: 2, max: 1_000 }),
  ContainerHeight: decimal({ maxDecimals: 2, max: 1_000 }),
  AWB: awb(),
  Reference1: text(),
  Reference2: text(),
  Reference3: text(),
  Reference4: text(),
  // The parcel's customs declaration (lib/schemas/customs.ts): optional, stored with the package and read back.
  Customs: customs(),
  // A quote from POST /wf/rate (lib/billing/quote-id.ts): priced at it while it still matches the package.
  QuoteID: quoteId(),
});

// POST /wf/package: exactly one package object under `package` (an array is refused before this
// schema runs, with its own error code: see lib/packages/create-package-manifest.ts).
export const ZPackageManifestRequest = z.object({ package: ZPackage }).transform((body) => body.package);

/** What POST /wf/package reads, for naming what it ignored. */
export const PACKAGE_MANIFEST_FIELDS = fieldTree(
  { package: true },
  {},
  { package: fieldTree(ZPackage.shape, PACKAGE_MANIFEST_ALIASES, { Customs: CUSTOMS_FIELDS }) },
);

export type TPackage = z.output<typeof ZPackage>;

// The answer to POST /wf/package: IsSuccess is the boolean true, unlike the container operation's text.
export const ZPackageManifestResponse = z.object({
  IsSuccess: z.literal(true),
  ManifestID: z.string().meta({ description: 'The daily manifest the package joined.', examples: ['MAN-7K3Q9X2M4T8V6W1Z'] }),
  TrackingNumber: z.string(),
  charge: ZCharge.optional().meta({
    description:
      'What the package costs (an identical resend answers the stored charge, as it is now); absent for a package accepted before pricing.',
  }),
  warnings: ZWarnings,
});
