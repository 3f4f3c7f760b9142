import 'server-only';

// Sign-in attempts, limited per e-mail and per client IP with a sliding window of failures.
// In-process by design: it slows guessing on one instance; with several instances each keeps its own
// count, so the effective limit is N × the instance's. argon2's cost bounds the guessing rate anyway.
// Successful sign-ins clear the e-mail's count.

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const kept = (failures.get(key) ?? []).filter((at) => now - at < SIGN_IN_WINDOW_MS);
  if (kept.length > 0) failures.set(key, kept);
  else failures.delete(key);
  return kept;
}

function keys(options: { email: string; ip: string }) {
  return [
    { key: `email:${options.email.trim().toLowerCase()}`, max: MAX_FAILURES_PER_EMAIL },
    { key: `ip:${options.ip}`, max: MAX_FAILURES_PER_IP },
  ];
}

/** Seconds to wait before another attempt is allowed, or 0 when one is allowed now. */
export function signInRetryAfter(options: { email: string; ip: string; now?: number }): number {
  const now = options.now ?? Date.now();
  let wait = 0;
  for (const { key, max } of keys(options)) {
    const list = recent(key, now);
    if (list.length >= max) wait = Math.max(wait, Math.ceil((list[list.length - max] + SIGN_IN_WINDOW_MS - now) / 1000));
  }
  return wait;
}

export function recordSignInFailure(options: { email: string; ip: string; now?: number }): void {
  const now = options.now ?? Date.now();
  for (const { key } of keys(options)) failures.set(key, [...recent(key, now), now]);
  if (failures.size > 100_000) failures.clear(); // bound memory under a spray of unique keys
}

export function clearSignInFailures(options: { email: string }): void {
  failures.delete(`email:${options.email.trim().toLowerCase()}`);
}
