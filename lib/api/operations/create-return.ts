import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, NOT_FOUND, PATH_PARAMETERS } from '../openapi/parts';
import { REPLAYED, REPLAYED_HEADERS } from '../replayed';
import { ZPackageResponse } from '@/lib/schemas/lifecycle';
import { createReturn } from '@/lib/returns/returns';
import { readPackageWithReturns } from '@/lib/returns/read';
import { accountScope, pathParam } from '../context';

export const createReturnOperation = defineJsonOperation(ZPackageResponse, {
  id: 'createReturn',
  method: 'POST',
  path: '/packages/{TrackingNumber}/return',
  scope: 'manifests:write',
  tag: 'Lifecycle',
  summary: 'Make a return package for a package out for delivery or delivered',
  description:
    "A new package on today's daily manifest, from the original's recipient back to its shipper (the original's From address; a container package's: its manifest's), with the original's service, size and weight: its own TrackingNumber (`RTN-<original carrier barcode>-<n>`) and carrier_barcode, priced, labelled (GET /packages/{TrackingNumber}/label) and tracked like any package. " +
    "Its `return_of` names the original, and the original's `returns` lists it. One return per package: asking again answers the same return (with `Idempotent-Replayed`) until it is cancelled, after which a new one can be made. " +
    'Sends `package.sorting` and `package.return_created`. 409 `not_returnable` (with `current_status`): not yet out for delivery, cancelled, itself a return, or missing what a label needs (named in `details`).',
  parameters: [PATH_PARAMETERS.trackingNumber],
  success: {
    kind: 'json',
    status: 200,
    description: 'The return package (with `Idempotent-Replayed` when it already existed).',
    headers: REPLAYED_HEADERS,
  },
  errors: { '404': NOT_FOUND, '409': errorAnswer('`not_returnable`, with `current_status`.') },
  handler: async (context) => {
    const scope = accountScope(context);
    const made = await createReturn({ ...scope, identifier: pathParam(context, 'TrackingNumber') });
    const body = await readPackageWithReturns({ ...scope, trackingNumber: made.trackingNumber });
    return made.created ? { body } : { body, headers: REPLAYED };
  },
});
