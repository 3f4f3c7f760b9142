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
      // Every version of every card: quoting takes the active ones in force now, a package the one in force on its
      // ManifestDate (card-versions.ts), and a re-rating the very version its charge names, even one switched off since.
      const rows = await db.rateCard.findMany({
        orderBy: [{ sortOrder: 'asc' }, { service: 'asc' }, { effectiveFrom: 'asc' }],
      });
      return rows.map(parseRateCard);
    },
    subscribe: (onChange) => onCacheInvalidation((topic) => (topic === null || topic === 'rate_cards') && onChange()),
  });
  return globalForCards.rateCards;
}

/** Every version of every card, active or not (pick with cardsInForce / cardInForce in card-versions.ts). */
export const activeRateCards = { get: () => cache().get() };
