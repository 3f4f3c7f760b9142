import { z } from 'zod';
import { isCarrierBarcode, normalizeCarrierBarcode } from './carrier-barcode';
import { ZListPackagesQuery } from './lifecycle';

// The portal's batch operations on packages (cancel, labels, CSV): which packages, either the ones ticked (by carrier
// barcode: unique across the carrier, so an id never means two packages) or every one a list filter matches.

/** The most packages one batch acts on: a full container's. */
export const BATCH_MAX = 5_000;

const barcode = z
  .string()
  .refine(isCarrierBarcode, 'must be a carrier barcode (CB, twelve digits and a check digit)')
  .transform(normalizeCarrierBarcode);

export const ZPackageSelection = z
  .strictObject({
    carrier_barcodes: z.array(barcode).min(1).max(BATCH_MAX).optional(),
    // GET /packages's filters under their query names; paging has no meaning for a whole selection.
    filter: z.record(z.string(), z.string().max(128)).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.carrier_barcodes === undefined) === (value.filter === undefined))
      ctx.addIssue({ code: 'custom', path: ['carrier_barcodes'], message: 'send either carrier_barcodes or filter' });
    for (const paging of ['limit', 'cursor'])
      if (value.filter && paging in value.filter)
        ctx.addIssue({ code: 'custom', path: ['filter', paging], message: 'a selection holds every matching package' });
  })
  .transform((value, ctx) => {
    if (value.carrier_barcodes) return { carrierBarcodes: [...new Set(value.carrier_barcodes)] };
    const parsed = ZListPackagesQuery.safeParse(value.filter ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // An unknown filter is named by its own path, as the list's query names it.
        if (issue.code === 'unrecognized_keys')
          for (const key of issue.keys)
            ctx.addIssue({ code: 'custom', path: ['filter', key], message: 'is not a filter of the list' });
        else ctx.addIssue({ ...issue, path: ['filter', ...issue.path] });
      }
      return z.NEVER;
    }
    const { limit: _limit, cursor: _cursor, ...filters } = parsed.data;
    return { filters };
  });

export type TPackageSelection = z.output<typeof ZPackageSelection>;

/** POST /portal-api/package-batch/cancel's answer: counts, and each package not cancelled with the single cancel's code and words. */
export interface TBatchCancelResponse {
  requested: number;
  cancelled: number;
  already_cancelled: number;
  not_cancelled: { carrier_barcode: string; TrackingNumber: string | null; code: string; message: string }[];
}

/** GET /portal-api/package-count's answer; `capped` when counting stopped before the end. */
export interface TPackageCountResponse {
  count: number;
  capped: boolean;
}
