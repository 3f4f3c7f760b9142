import 'server-only';
import type { Operation } from '../types';
import { parseOperation } from '@/lib/schemas/parse';
import { RATE_ALIASES, RATE_FIELDS, ZRateRequest, type TRateResponse } from '@/lib/schemas/rate';
import { ignoredFields } from '@/lib/schemas/unknown-fields';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { quoteRates } from '@/lib/rating/quote-rates';

// POST /wf/rate: one quote per rate card that can price the request (or the named service's).
export const quoteRatesOperation: Operation<TRateResponse> = async (context) => {
  const body = await context.json();
  const input = parseOperation(ZRateRequest, body, { aliases: RATE_ALIASES });
  const result = quoteRates({ cards: await activeRateCards.get(), input });
  const warnings = ignoredFields(body, RATE_FIELDS);
  return {
    body: {
      rates: result.rates,
      ...(result.messages.length > 0 ? { messages: result.messages } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
    },
  };
};
