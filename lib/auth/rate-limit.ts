import { env } from '@/lib/env';
import { isRefusal, limiters, rateLimited, retryAfterSeconds } from './limiters';

// In memory per process: with N instances a token may reach N times the limit, which guards capacity (it is no quota)
// without a round trip per request (docs/decisions/rate-limiting.md).
export interface RateLimitState {
  remaining: number;
  resetSeconds: number;
}

export async function checkRateLimit(key: string): Promise<RateLimitState> {
  try {
    const res = await limiters().tokenRate.consume(key);
    return { remaining: res.remainingPoints, resetSeconds: retryAfterSeconds(res.msBeforeNext) };
  } catch (error) {
    if (!isRefusal(error)) throw error;
    throw rateLimited((s) => `Too many requests for this token; retry after ${s} s.`, error.msBeforeNext);
  }
}

let policy: string | undefined;

// So that a client slows down before it meets a 429.
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  if (!policy) {
    const e = env();
    policy = `"token";q=${e.API_RATE_LIMIT_BURST};w=${Math.max(1, Math.round(e.API_RATE_LIMIT_BURST / e.API_RATE_LIMIT_PER_SECOND))}`;
  }
  return { 'ratelimit-policy': policy, ratelimit: `"token";r=${state.remaining};t=${state.resetSeconds}` };
}
