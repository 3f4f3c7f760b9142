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
      // Every version of every active card: quoting takes the ones in force now, a package the one in force on its
      // ManifestDate (card-versions.ts). A card changes by a new version, so old ones stay what priced past packages.
      const rows = await db.rateCard.findMany({
        where: { active: true },
        orderBy: [{ sortOrder: 'asc' }, { service: 'asc' }, { effectiveFrom: 'asc' }],
      });
      return rows.map(parseRateCard);
    },
    subscribe: (onChange) => onCacheInvalidation((topic) => (topic === null || topic === 'rate_cards') && onChange()),
  });
  return globalForCards.rateCards;
}

/** Every version of the active cards (pick with cardsInForce / cardInForce in card-versions.ts). */
export const activeRateCards = { get: () => cache().get() };
