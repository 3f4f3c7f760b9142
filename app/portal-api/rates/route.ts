import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { quoteRates } from '@/lib/rating/quote-rates';
import { portalRoute, readBody } from '@/lib/portal/route';
import { RATE_ALIASES, ZRateRequest } from '@/lib/schemas/rate';

// POST /portal-api/rates: the rate calculator; the same parsing and rating as POST /wf/rate.
export const POST = portalRoute(async ({ request }) => {
  const input = await readBody(request, ZRateRequest, { aliases: RATE_ALIASES });
  return quoteRates({ cards: await activeRateCards.get(), input });
});
