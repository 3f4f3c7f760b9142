import { z } from 'zod';
import { awb, decimal, email, isoDateTime, oneOf, postalCode, text, trackingNumber } from './fields';
import type { Aliases } from './parse';

export const MAX_CONTAINER_PACKAGES = 5_000;
export const PACKAGE_WEIGHT_UNITS = ['lb', 'kg', 'oz'] as const;

/** Published spellings: the field list and the sample body disagree on these names. */
export const CONTAINER_MANIFEST_ALIASES: Aliases = {
  FromPostalCode: ['FromPostalcode'],
  ContainerWeight: ['Container Weight'],
  ContainerName: ['Container Name'],
};

export const ZContainerDetail = z.object({
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
export type TContainerDetail = z.output<typeof ZContainerDetail>;

// POST /wf/manifest: an air-cargo container, its AWB and the packages inside.
export const ZContainerManifestRequest = z
  .object({
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
    ContainerDetails: z
      .preprocess((value, ctx) => {
        if (value === null || value === '') return undefined;
        // The length is checked before any element, so a huge array costs one error, not one per item.
        if (Array.isArray(value) && value.length > MAX_CONTAINER_PACKAGES) {
          ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_CONTAINER_PACKAGES} packages (got ${value.length})` });
          return z.NEVER;
        }
        return value;
      }, z.array(ZContainerDetail).max(MAX_CONTAINER_PACKAGES).optional())
      // Runs even when some items failed (`when`), so a duplicate is reported beside their errors.
      .superRefine(
        (details, ctx) => {
          if (!Array.isArray(details)) return;
          // A tracking number identifies one package: twice in one container is a mistake.
          const firstIndex = new Map<string, number>();
          details.forEach((detail, index) => {
            const tn = (detail as { TrackingNumber?: unknown } | null)?.TrackingNumber;
            if (typeof tn !== 'string' || tn === '') return;
            const seen = firstIndex.get(tn);
            if (seen === undefined) firstIndex.set(tn, index);
            else
              ctx.addIssue({
                code: 'custom',
                path: [index, 'TrackingNumber'],
                message: `duplicates ContainerDetails[${seen}].TrackingNumber`,
              });
          });
        },
        { when: () => true },
      ),
  })
  .transform(({ ContainerDetails, ...header }) => ({ header, packages: ContainerDetails ?? [] }));

export type TContainerManifestRequestInput = z.input<typeof ZContainerManifestRequest>;
export type TContainerManifestRequest = z.output<typeof ZContainerManifestRequest>;
export type TContainerManifestHeader = TContainerManifestRequest['header'];
