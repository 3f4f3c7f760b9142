import 'server-only';
import type { Operation } from '../types';
import { parseOperation } from '@/lib/schemas/parse';
import { RATE_ALIASES, ZRateRequest, type TRateResponse } from '@/lib/schemas/rate';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { quoteRates } from '@/lib/rating/quote-rates';

// POST /wf/rate: one quote per rate card that can price the request (or the named service's).
export const quoteRatesOperation: Operation<TRateResponse> = async (context) => {
  const input = parseOperation(ZRateRequest, await context.json(), { aliases: RATE_ALIASES });
  const result = quoteRates({ cards: await activeRateCards.get(), input });
  return { body: result.messages.length > 0 ? result : { rates: result.rates } };
};
