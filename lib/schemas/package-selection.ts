import { z } from 'zod';
import { isCarrierBarcode, luhnCheckDigit, normalizeCarrierBarcode } from './carrier-barcode';
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

/**
 * Ticked packages in a link, so labels and CSV download as the browser shows them at once: each barcode's digits
 * in base 36, eight characters. 1,000 are 8,000 characters, well inside Node's 16 KB request head.
 */
export const LINK_IDS_MAX = 1_000;
const PACKED = 8;

export function packIds(carrierBarcodes: readonly string[]): string {
  return carrierBarcodes.map((b) => Number(b.slice(2, 14)).toString(36).padStart(PACKED, '0')).join('');
}

/** The carrier barcodes of a packed `ids`, or undefined when it is not one (a 422 naming `ids` for the caller). */
export function unpackIds(text: string): string[] | undefined {
  if (text.length === 0 || text.length % PACKED !== 0 || text.length / PACKED > LINK_IDS_MAX || !/^[0-9a-z]+$/.test(text))
    return undefined;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += PACKED) {
    const value = parseInt(text.slice(i, i + PACKED), 36);
    if (value >= 1e12) return undefined;
    const digits = String(value).padStart(12, '0');
    out.push(`CB${digits}${luhnCheckDigit(digits)}`);
  }
  return out;
}

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
