import { describe, expect, it, vi } from 'vitest';

// The defaults: 200 requests per 2 s window per token.
vi.mock(import('@/lib/env'), async (original) => ({
  ...(await original()),
  env: () => ({ API_RATE_LIMIT_BURST: 200, API_RATE_LIMIT_PER_SECOND: 100 }) as ReturnType<typeof import('@/lib/env').env>,
}));
const { checkRateLimit } = await import('./rate-limit');

describe('the per-token rate', () => {
  const t0 = 1_000_000_000;

  it('counts each token in its own window and refuses the request past the burst with the time to wait', () => {
    for (let i = 1; i <= 200; i += 1) expect(checkRateLimit('tok_a', t0 + i)).toMatchObject({ remaining: 200 - i });
    // The window began at t0 + 1 and lasts 2 s: 1.501 s left, said as 2 s.
    expect(() => checkRateLimit('tok_a', t0 + 500)).toThrow(
      expect.objectContaining({ code: 'rate_limited', retryAfterSeconds: 2 }),
    );
    expect(checkRateLimit('tok_b', t0 + 500)).toEqual({ remaining: 199, resetSeconds: 2 });
  });

  it('opens a new window once the last one has ended', () => {
    const t1 = t0 + 60_000;
    for (let i = 0; i < 200; i += 1) checkRateLimit('tok_c', t1);
    expect(() => checkRateLimit('tok_c', t1 + 1_999)).toThrow();
    expect(checkRateLimit('tok_c', t1 + 2_000)).toEqual({ remaining: 199, resetSeconds: 2 });
  });
});
