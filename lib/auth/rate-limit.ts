import { env } from '@/lib/env';
import { ApiError } from '@/lib/http/errors';

// A token bucket per API token, per process. With N instances a token may reach N times the
// limit; the limit protects capacity, it is not a billing quota, so that is an accepted trade
// (docs/decisions/rate-limiting.md). No correctness depends on it.
interface Bucket {
  tokens: number;
  updatedAt: number;
}

const buckets = new Map<string, Bucket>();

export function checkRateLimit(key: string, now = Date.now()): void {
  const { API_RATE_LIMIT_PER_SECOND: rate, API_RATE_LIMIT_BURST: burst } = env();
  const bucket = buckets.get(key) ?? { tokens: burst, updatedAt: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate);
  bucket.updatedAt = now;
  buckets.set(key, bucket);
  if (bucket.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    throw new ApiError('rate_limited', `Too many requests for this token; retry after ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
  bucket.tokens -= 1;
  if (buckets.size > 100_000) buckets.clear();
}
