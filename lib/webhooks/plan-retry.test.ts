import { describe, expect, it } from 'vitest';
import { parseRetryAfter, planRetry } from './plan-retry';

const DEFAULT = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

describe('planRetry', () => {
  it('follows the schedule of design.md, then gives up after 8 attempts', () => {
    const mid = () => 0.5; // no jitter
    expect(DEFAULT.map((_, i) => planRetry({ attemptsMade: i + 1, schedule: DEFAULT, random: mid }).delayMs)).toEqual(DEFAULT);
    expect(planRetry({ attemptsMade: 8, schedule: DEFAULT, random: mid }).delayMs).toBeNull();
  });

  it('adds at most ±10 % jitter', () => {
    expect(planRetry({ attemptsMade: 1, schedule: DEFAULT, random: () => 0 }).delayMs).toBe(4_500);
    expect(planRetry({ attemptsMade: 1, schedule: DEFAULT, random: () => 0.999999 }).delayMs).toBe(5_500);
  });

  it('waits at least as long as Retry-After asks, capped at 10 h', () => {
    expect(planRetry({ attemptsMade: 1, schedule: [50], retryAfterMs: 2_000, random: () => 0.5 }).delayMs).toBe(2_000);
    expect(planRetry({ attemptsMade: 1, schedule: [5_000], retryAfterMs: 1_000, random: () => 0.5 }).delayMs).toBe(5_000);
    expect(planRetry({ attemptsMade: 1, schedule: [50], retryAfterMs: 99 * 3_600_000, random: () => 0.5 }).delayMs).toBe(
      36_000_000,
    );
  });

  it('gives a manual redelivery no retries', () => {
    expect(planRetry({ attemptsMade: 1, schedule: DEFAULT, redelivery: true }).delayMs).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    const now = Date.parse('2026-11-21T05:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 05:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 04:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
