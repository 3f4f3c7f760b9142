import { listRateCards } from '@/lib/portal/rate-cards';
import { portalRoute } from '@/lib/portal/route';
import type { TRateCardsResponse } from '@/lib/schemas/portal-responses';

// GET /portal-api/rate-cards: every rate card (the same for all accounts and both environments).
export const GET = portalRoute(async (): Promise<TRateCardsResponse> => ({ rateCards: await listRateCards() }), {
  permission: 'data:read',
});
