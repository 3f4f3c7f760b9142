import { z } from 'zod';

// Returns from the public tracking page (docs/decisions/returns.md "From the public tracking page").

/** PUT|GET /portal-api/settings/returns: whether the account's live packages' public pages offer a return. */
export const ZReturnSettings = z.strictObject({
  public_returns: z.boolean({ error: 'must be true or false' }),
});
export type TReturnSettings = z.output<typeof ZReturnSettings>;

/** POST /api/track/{id}/return, as JSON: a return made or found for a recipient who proved they hold the parcel. */
export const ZPublicReturnResponse = z.object({
  object: z.literal('public_return'),
  /** The package returned (by carrier barcode: the tracking number may be the shipper's order number). */
  carrier_barcode: z.string(),
  /** The return package's tracking number (`RTN-…`): what the recipient quotes. */
  return_tracking_number: z.string(),
  /** The return label as PDF, for an hour, to this answer only (a token of its own in the address). */
  label_url: z.string(),
});
export type TPublicReturnResponse = z.output<typeof ZPublicReturnResponse>;
