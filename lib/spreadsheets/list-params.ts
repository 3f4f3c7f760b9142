import { z } from 'zod';
import { storableString } from '@/lib/schemas/text-rule';

// Query-string parameters of the portal's own lookups, parsed once with parseOperation, so a bad value is a 422
// naming the parameter. The lists (manifests, packages) read the API's own query schemas (lib/schemas/lifecycle.ts).

/** A package is looked up by its tracking number: the same text rule and length as the API's. */
export const ZFindPackageQuery = z.object({
  tracking: storableString().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
});
