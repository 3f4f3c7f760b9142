import { z } from 'zod';
import { storableString } from '@/lib/schemas/text-rule';

// The same text rule and length as the API's tracking number.
export const ZFindPackageQuery = z.object({
  tracking: storableString().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
});
