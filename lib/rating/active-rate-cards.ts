import 'server-only';
import { onCacheInvalidation } from '@/lib/cache/invalidation';
import { db } from '@/lib/db';
import { parseRateCard } from './parse-rate-card';
import { createRateCardCache } from './rate-card-cache';

// The active cards, held in memory; the rate_cards trigger's notification (or a lost listener
// connection) drops them, so an edit in the database is priced from the next request on.
const globalForCards = globalThis as unknown as { rateCards?: ReturnType<typeof createRateCardCache> };

export const activeRateCards =
  globalForCards.rateCards ??
  (globalForCards.rateCards = createRateCardCache({
    load: async () => {
      const rows = await db.rateCard.findMany({ where: { active: true }, orderBy: [{ sortOrder: 'asc' }, { service: 'asc' }] });
      return rows.map(parseRateCard);
    },
    subscribe: (onChange) => onCacheInvalidation((topic) => (topic === null || topic === 'rate_cards') && onChange()),
  }));
