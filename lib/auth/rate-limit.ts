import { isRefusal, limiters, rateLimited } from './limiters';

// The request rate per API token, in this process's memory (rate-limiter-flexible's
// RateLimiterMemory): API_RATE_LIMIT_BURST requests per BURST/RATE seconds. With N instances a
// token may reach N times the limit; the limit protects capacity, it is not a billing quota, and
// a shared store would put a round trip on every request (docs/decisions/rate-limiting.md).
export async function checkRateLimit(key: string): Promise<void> {
  try {
    await limiters().tokenRate.consume(key);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    throw rateLimited((s) => `Too many requests for this token; retry after ${s} s.`, error.msBeforeNext);
  }
}
