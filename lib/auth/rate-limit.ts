import { env } from '@/lib/env';
import { rateLimited, retryAfterSeconds } from './limiters';

// In memory per process: with N instances a token may reach N times the limit, which guards capacity (it is no quota)
// without a round trip per request (docs/decisions/rate-limiting.md). A fixed window per token, BURST requests per
// BURST/RATE seconds, counted synchronously: the library's limiter cost a promise and a timer per window on every
// API request, a measurable share of a quote.
export interface RateLimitState {
  remaining: number;
  resetSeconds: number;
}

interface Window {
  used: number;
  endsAt: number;
}

interface TokenWindows {
  windows: Map<string, Window>;
  points: number;
  windowMs: number;
  sweptAt: number;
  policy?: string;
}

// On globalThis, so that Next's module copies count one window per token.
const KEY = Symbol.for('carrier.tokenRateWindows');
type Global = typeof globalThis & { [KEY]?: TokenWindows };

function tokenWindows(): TokenWindows {
  const global = globalThis as Global;
  if (global[KEY]) return global[KEY];
  const e = env();
  const made: TokenWindows = {
    windows: new Map(),
    points: e.API_RATE_LIMIT_BURST,
    windowMs: 1_000 * Math.max(1, Math.round(e.API_RATE_LIMIT_BURST / e.API_RATE_LIMIT_PER_SECOND)),
    sweptAt: 0,
  };
  global[KEY] = made;
  return made;
}

export function checkRateLimit(key: string, now = Date.now()): RateLimitState {
  const state = tokenWindows();
  // Ended windows go at most once a window: memory stays bounded by the tokens seen in the last two windows.
  if (now - state.sweptAt >= state.windowMs) {
    state.sweptAt = now;
    for (const [token, window] of state.windows) if (window.endsAt <= now) state.windows.delete(token);
  }
  let window = state.windows.get(key);
  if (!window || window.endsAt <= now) {
    window = { used: 0, endsAt: now + state.windowMs };
    state.windows.set(key, window);
  }
  window.used += 1;
  const msLeft = window.endsAt - now;
  if (window.used > state.points) throw rateLimited((s) => `Too many requests for this token; retry after ${s} s.`, msLeft);
  return { remaining: state.points - window.used, resetSeconds: retryAfterSeconds(msLeft) };
}

// So that a client slows down before it meets a 429: the window above, as the policy says it.
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const windows = tokenWindows();
  windows.policy ??= `"token";q=${windows.points};w=${windows.windowMs / 1_000}`;
  return { 'ratelimit-policy': windows.policy, ratelimit: `"token";r=${state.remaining};t=${state.resetSeconds}` };
}
