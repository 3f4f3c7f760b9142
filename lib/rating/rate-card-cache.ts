// The active cards in memory, so quoting does not query per request. invalidate() (a change notification) drops them and
// the next get() waits for a fresh load, so an edit is never priced stale once notified; past maxAgeMs, stale cards are
// served while one reload runs, which bounds staleness when a notification was missed. A failed load is not cached.
import type { RateCardData } from './types';

export interface RateCardCache {
  get(): Promise<RateCardData[]>;
  invalidate(): void;
  close(): void;
}

export interface RateCardCacheOptions {
  load: () => Promise<RateCardData[]>;
  subscribe?: (onChange: () => void) => () => void;
  maxAgeMs?: number;
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
