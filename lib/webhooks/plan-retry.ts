/** Spreads the retries of messages that failed together, so they do not all return in the same second. */
export const JITTER = 0.2;
/** A Retry-After is honoured up to the longest step of the default schedule. */
const MAX_RETRY_AFTER_MS = 10 * 3_600_000;

export interface RetryPlan {
  delayMs: number | null;
}

/** `attemptsMade` counts the attempt that just failed; Retry-After (429, 503) may lengthen the wait. */
export function planRetry(options: {
  attemptsMade: number;
  schedule: readonly number[];
  retryAfterMs?: number | null;
  redelivery?: boolean;
  random?: () => number;
}): RetryPlan {
  const { attemptsMade, schedule, retryAfterMs, redelivery = false, random = Math.random } = options;
  const base = schedule[attemptsMade - 1];
  if (redelivery || base === undefined) return { delayMs: null };
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  const asked = retryAfterMs == null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return { delayMs: Math.max(jittered, asked) };
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
