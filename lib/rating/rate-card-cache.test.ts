import { describe, it, expect } from 'vitest';
import { createRateCardCache } from './rate-card-cache';
import type { RateCardData } from './types';
import { defined } from '@/lib/test-support/defined';

// Cards are opaque to the cache: stand-ins tagged by version are enough.
const cards = (version: number) => [{ service: `v${version}` } as unknown as RateCardData];
const services = (list: RateCardData[]) => list.map((c) => c.service);

/** A load() whose calls are counted and resolved by hand. */
function manualLoader() {
  const pending: { resolve: (v: RateCardData[]) => void; reject: (e: Error) => void }[] = [];
  const load = () => new Promise<RateCardData[]>((resolve, reject) => pending.push({ resolve, reject }));
  return {
    load,
    pending,
    get calls() {
      return pending.length;
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createRateCardCache', () => {
  it('single-flight: concurrent get() calls share one load', async () => {
    const l = manualLoader();
    const cache = createRateCardCache({ load: l.load });
    const a = cache.get();
    const b = cache.get();
    expect(l.calls).toBe(1);
    defined(l.pending[0], 'a pending load').resolve(cards(1));
    expect(services(await a)).toEqual(['v1']);
    expect(await b).toBe(await a);
  });

  it('serves from memory while fresh', async () => {
    let clock = 0;
    let n = 0;
    const cache = createRateCardCache({ load: async () => cards(++n), now: () => clock, maxAgeMs: 1000 });
    await cache.get();
    clock = 1000;
    expect(services(await cache.get())).toEqual(['v1']);
    expect(n).toBe(1);
  });

  it('stale-while-revalidate after maxAgeMs: old cards now, one background reload, new cards next', async () => {
    let clock = 0;
    const l = manualLoader();
    const cache = createRateCardCache({ load: l.load, now: () => clock, maxAgeMs: 1000 });
    const first = cache.get();
    defined(l.pending[0], 'a pending load').resolve(cards(1));
    await first;
    clock = 1001;
    expect(services(await cache.get())).toEqual(['v1']); // not blocked on the reload
    expect(services(await cache.get())).toEqual(['v1']);
    expect(l.calls).toBe(2); // one reload for both stale reads
    defined(l.pending[1], 'a pending load').resolve(cards(2));
    await tick();
    expect(services(await cache.get())).toEqual(['v2']);
    expect(l.calls).toBe(2);
  });

  it('invalidate(): the next get() waits for fresh cards', async () => {
    let n = 0;
    const cache = createRateCardCache({ load: async () => cards(++n) });
    await cache.get();
    cache.invalidate();
    expect(services(await cache.get())).toEqual(['v2']);
  });

  it('a load that started before invalidate() is not cached as fresh', async () => {
    const l = manualLoader();
    const cache = createRateCardCache({ load: l.load });
    const early = cache.get();
    cache.invalidate(); // e.g. a price edit committed while the first query ran
    const late = cache.get();
    expect(l.calls).toBe(2);
    // The fresh load finishes first; the old one landing afterwards must not overwrite it.
    defined(l.pending[1], 'a pending load').resolve(cards(2));
    expect(services(await late)).toEqual(['v2']);
    defined(l.pending[0], 'a pending load').resolve(cards(1));
    expect(services(await early)).toEqual(['v1']);
    expect(services(await cache.get())).toEqual(['v2']);
    expect(l.calls).toBe(2);
  });

  it('subscribes for change notifications and unsubscribes on close()', async () => {
    let listener: (() => void) | undefined;
    let unsubscribed = false;
    let n = 0;
    const cache = createRateCardCache({
      load: async () => cards(++n),
      subscribe: (onChange) => {
        listener = onChange;
        return () => {
          unsubscribed = true;
        };
      },
    });
    await cache.get();
    listener!(); // NOTIFY cache_invalidation, 'rate_cards'
    expect(services(await cache.get())).toEqual(['v2']);
    cache.close();
    expect(unsubscribed).toBe(true);
  });

  it('a failed first load rejects and is retried on the next get()', async () => {
    let fail = true;
    const cache = createRateCardCache({
      load: async () => {
        if (fail) throw new Error('db down');
        return cards(1);
      },
    });
    await expect(cache.get()).rejects.toThrow('db down');
    fail = false;
    expect(services(await cache.get())).toEqual(['v1']);
  });

  it('a failed background reload keeps serving the stale cards', async () => {
    let clock = 0;
    let fail = false;
    let n = 0;
    const cache = createRateCardCache({
      load: async () => {
        n++;
        if (fail) throw new Error('db down');
        return cards(n);
      },
      now: () => clock,
      maxAgeMs: 10,
    });
    await cache.get();
    fail = true;
    clock = 100;
    expect(services(await cache.get())).toEqual(['v1']);
    await tick();
    expect(services(await cache.get())).toEqual(['v1']);
    expect(n).toBe(3); // each stale read after a failure tries again (still one at a time)
  });
});
