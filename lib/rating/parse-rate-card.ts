import { z } from 'zod';
import { rateCardSchema, type RateCardData, type RateCardRow } from './types';

// Throws on a malformed row: a broken card must fail loudly at load time, never quietly misprice.
export function parseRateCard(row: RateCardRow): RateCardData {
  const parsed = rateCardSchema.safeParse(row);
  if (!parsed.success) {
    const name = typeof row?.service === 'string' ? row.service : '(no service)';
    throw new Error(
      `Rate card ${JSON.stringify(name)}${row?.id ? ` (${row.id})` : ''} is malformed:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
