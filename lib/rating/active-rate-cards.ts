import 'server-only';
import { onCacheInvalidation } from '@/lib/cache/invalidation';
import { db } from '@/lib/db';
import { parseRateCard } from './parse-rate-card';
import { createRateCardCache, type RateCardCache } from './rate-card-cache';

// Created on first use, so that importing this module (as `next build` does) connects to nothing.
const globalForCards = globalThis as unknown as { rateCards?: RateCardCache };

function cache(): RateCardCache {
  globalForCards.rateCards ??= createRateCardCache({
    load: async () => {
      const rows = await db.rateCard.findMany({ where: { active: true }, orderBy: [{ sortOrder: 'asc' }, { service: 'asc' }] });
      return rows.map(parseRateCard);
    },
    subscribe: (onChange) => onCacheInvalidation((topic) => (topic === null || topic === 'rate_cards') && onChange()),
  });
  return globalForCards.rateCards;
}

export const activeRateCards = { get: () => cache().get() };
