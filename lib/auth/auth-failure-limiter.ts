import { env } from '@/lib/env';
import { ApiError } from '@/lib/http/errors';

// Guessing tokens from one address: after API_AUTH_FAILURES_PER_MINUTE failed authentications
// within a minute, that address is refused with 429 until the minute is over, valid token or
// not. Per process, like the request rate limit (docs/decisions/api-foundation.md).
const WINDOW_MS = 60_000;
const failures = new Map<string, { count: number; windowStart: number }>();

export function assertAddressNotBlocked(address: string | undefined, now = Date.now()): void {
  if (!address) return;
  const entry = failures.get(address);
  if (!entry || now - entry.windowStart >= WINDOW_MS) return;
  if (entry.count >= env().API_AUTH_FAILURES_PER_MINUTE) {
    const retryAfter = Math.max(1, Math.ceil((entry.windowStart + WINDOW_MS - now) / 1000));
    throw new ApiError('rate_limited', `Too many failed authentications from this address; retry after ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

export function recordAuthFailure(address: string | undefined, now = Date.now()): void {
  if (!address) return;
  const entry = failures.get(address);
  if (!entry || now - entry.windowStart >= WINDOW_MS) failures.set(address, { count: 1, windowStart: now });
  else entry.count += 1;
  if (failures.size > 100_000) failures.clear();
}
