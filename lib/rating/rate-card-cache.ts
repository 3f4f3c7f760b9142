// In-process cache of the active rate cards, so quoting doesn't query per request.
// DB-agnostic: the caller supplies `load` (e.g. Prisma findMany + parseRateCard) and
// optionally `subscribe` (e.g. PostgreSQL LISTEN cache_invalidation, payload 'rate_cards').
//
// Freshness:
// - invalidate() (a change notification) drops the cached cards: the next get() waits for a
//   fresh load, so a price edit is never served stale once its notification has arrived.
// - Otherwise cards older than maxAgeMs are served while one background reload runs
//   (stale-while-revalidate). This bounds staleness if a notification is ever missed,
//   e.g. while the LISTEN connection was reconnecting.
// - Loads are single-flight: concurrent get() calls share one promise.
// - A failed load is not cached; with no cards cached get() rejects, with stale cards
//   cached they keep being served and the next get() retries.
import type { RateCardData } from './types';

export interface RateCardCache {
  get(): Promise<RateCardData[]>;
  invalidate(): void;
  close(): void;
}

export interface RateCardCacheOptions {
  load: () => Promise<RateCardData[]>;
  /** Registers a change listener; returns its unsubscribe function. */
  subscribe?: (onChange: () => void) => () => void;
  maxAgeMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export function createRateCardCache({ load, subscribe, maxAgeMs = 60_000, now = Date.now }: RateCardCacheOptions): RateCardCache {
  let cards: RateCardData[] | undefined;
  let loadedAt = 0;
  let inflight: Promise<RateCardData[]> | undefined;
  // Bumped by invalidate(): a load that started before a change must not be stored as fresh.
  let generation = 0;

  function startLoad(): Promise<RateCardData[]> {
    if (inflight) return inflight;
    const gen = generation;
    const startedAt = now();
    const p = load()
      .then((loaded) => {
        const frozen = Object.freeze([...loaded]) as RateCardData[];
        if (gen === generation) {
          cards = frozen;
          loadedAt = startedAt;
        }
        return frozen;
      })
      .finally(() => {
        if (inflight === p) inflight = undefined;
      });
    inflight = p;
    // Background reloads have no awaiting caller; keep their failure from being "unhandled".
    p.catch(() => {});
    return p;
  }

  const unsubscribe = subscribe?.(() => invalidate());

  function invalidate(): void {
    generation++;
    cards = undefined;
    // A load already in flight may have read the old rows; the next get() starts a new one.
    inflight = undefined;
  }

  return {
    get() {
      if (!cards) return startLoad();
      if (now() - loadedAt > maxAgeMs) void startLoad();
      return Promise.resolve(cards);
    },
    invalidate,
    close() {
      unsubscribe?.();
      invalidate();
    },
  };
}
