import { z } from 'zod';
import { text } from './fields';

export const cursor = text({ max: 200 }).meta({ description: 'The next_cursor of the previous page.' });

/** A keyset page of `item`s, as every cursor list answers (the lifecycle, events, request log, deliveries): `next_cursor` is null on the last page. */
export function keysetList<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean(), next_cursor: z.string().nullable() });
}
