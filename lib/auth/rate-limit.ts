import { env } from '@/lib/env';
import { isRefusal, limiters, rateLimited, retryAfterSeconds } from './limiters';

// The request rate per API token, in this process's memory (rate-limiter-flexible's
// RateLimiterMemory): API_RATE_LIMIT_BURST requests per BURST/RATE seconds. With N instances a
// token may reach N times the limit; the limit protects capacity, it is not a billing quota, and
// a shared store would put a round trip on every request (docs/decisions/rate-limiting.md).

/** How close a token is to its limit, for the RateLimit headers of every answer. */
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

/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers): the token's policy (quota and window) and how
 * much of it is left, so that a client slows down before it meets a 429.
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  if (!policy) {
    const e = env();
    policy = `"token";q=${e.API_RATE_LIMIT_BURST};w=${Math.max(1, Math.round(e.API_RATE_LIMIT_BURST / e.API_RATE_LIMIT_PER_SECOND))}`;
  }
  return { 'ratelimit-policy': policy, ratelimit: `"token";r=${state.remaining};t=${state.resetSeconds}` };
}
