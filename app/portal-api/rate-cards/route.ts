import { listRateCards } from '@/lib/portal/rate-cards';
import { portalRoute } from '@/lib/portal/route';

// GET /portal-api/rate-cards: every rate card (the same for all accounts and both environments).
export const GET = portalRoute(async () => ({ rateCards: await listRateCards() }));
