import { describe, expect, it } from 'vitest';
import {
  clearSignInFailures,
  MAX_FAILURES_PER_EMAIL,
  MAX_FAILURES_PER_IP,
  recordSignInFailure,
  SIGN_IN_WINDOW_MS,
  signInRetryAfter,
} from './sign-in-limiter';

describe('sign-in limiter', () => {
  it(`allows ${MAX_FAILURES_PER_EMAIL - 1} failures for an e-mail, refuses after ${MAX_FAILURES_PER_EMAIL}, and forgets after the window`, () => {
    const who = { email: 'Limit-1@Example.com', ip: '198.51.100.1' };
    const now = 1_000_000;
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i += 1) recordSignInFailure({ ...who, now });
    expect(signInRetryAfter({ ...who, now })).toBe(0);
    recordSignInFailure({ ...who, now });
    // Case and surrounding spaces do not make a new key.
    expect(signInRetryAfter({ email: ' limit-1@example.com ', ip: '203.0.113.9', now })).toBe(SIGN_IN_WINDOW_MS / 1000);
    expect(signInRetryAfter({ ...who, now: now + SIGN_IN_WINDOW_MS })).toBe(0);
  });

  it('a success clears the e-mail’s count but not the address’s', () => {
    const who = { email: 'limit-2@example.com', ip: '198.51.100.2' };
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i += 1) recordSignInFailure({ ...who, now: 5_000 });
    clearSignInFailures(who);
    expect(signInRetryAfter({ ...who, now: 5_000 })).toBe(0);
  });

  it('limits one address trying many e-mails', () => {
    const ip = '198.51.100.3';
    for (let i = 0; i < MAX_FAILURES_PER_IP; i += 1) recordSignInFailure({ email: `spray-${i}@example.com`, ip, now: 9_000 });
    expect(signInRetryAfter({ email: 'fresh@example.com', ip, now: 9_000 })).toBeGreaterThan(0);
    expect(signInRetryAfter({ email: 'fresh@example.com', ip: '198.51.100.4', now: 9_000 })).toBe(0);
  });
});
