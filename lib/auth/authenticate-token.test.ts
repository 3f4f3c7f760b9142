import { beforeEach, describe, expect, it, vi } from 'vitest';
import { generateToken } from './tokens';

// The token cache and a revoke that lands while a lookup is reading: the lookup must not put the token it read back
// into the cache after the revoke's invalidation went by, or the revoked token would pass until the TTL runs out.

const state = vi.hoisted(() => ({
  listener: null as ((topic: string | null) => void) | null,
  rows: [] as { revokedAt: Date | null }[],
  lookups: 0,
  duringLookup: null as (() => void) | null,
}));

vi.mock('@/lib/cache/invalidation', () => ({
  onCacheInvalidation: (listener: (topic: string | null) => void) => {
    state.listener = listener;
    return () => undefined;
  },
}));

vi.mock('@/lib/db', () => ({
  db: {
    apiToken: {
      findUnique: async ({ where }: { where: { tokenHash: string } }) => {
        state.lookups += 1;
        const row = state.rows.shift() ?? { revokedAt: new Date() };
        const during = state.duringLookup;
        state.duringLookup = null;
        during?.();
        return {
          id: 't1',
          accountId: 'a1',
          environment: 'test',
          tokenHash: where.tokenHash,
          fullAccess: true,
          scopes: [],
          ...row,
        };
      },
      update: async () => ({}),
    },
  },
}));

const { authenticateToken } = await import('./authenticate-token');

describe('the API token cache', () => {
  const { token, hash } = generateToken('test');
  const ask = () => authenticateToken({ authorization: `Token ${token}`, environment: 'test' });

  beforeEach(() => {
    state.rows = [];
    state.lookups = 0;
    state.listener?.(null);
  });

  it('serves a valid token from the cache, and drops it when its invalidation arrives', async () => {
    state.rows = [{ revokedAt: null }];
    await ask();
    await ask();
    expect(state.lookups).toBe(1);
    state.listener?.(`api_tokens:${hash}`);
    state.rows = [{ revokedAt: new Date() }];
    await expect(ask()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('does not cache a row read before a revoke whose invalidation arrived during the read', async () => {
    // The first read sees the token valid; while it is in flight, the revoke commits and its notification arrives.
    state.rows = [{ revokedAt: null }, { revokedAt: new Date() }];
    state.duringLookup = () => state.listener?.(`api_tokens:${hash}`);
    await ask();
    // The next request reads again, and finds it revoked (before the fix it was served from the cache for 60 s).
    await expect(ask()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(state.lookups).toBe(2);
  });
});

describe('an Authorization header the cache has not seen', () => {
  it('says what is wrong with it, before and after a valid token was remembered', async () => {
    const { token } = generateToken('test');
    for (const round of [1, 2]) {
      await expect(authenticateToken({ authorization: null, environment: 'test' })).rejects.toThrow(/Send your API token/);
      await expect(authenticateToken({ authorization: 'Token nope', environment: 'test' })).rejects.toThrow(/not valid\.$/);
      await expect(authenticateToken({ authorization: `Token ${token}x`, environment: 'test' })).rejects.toThrow(/not valid\.$/);
      if (round === 1) {
        state.rows = [{ revokedAt: null }];
        await authenticateToken({ authorization: `Token ${token}`, environment: 'test' });
      }
    }
  });
});
