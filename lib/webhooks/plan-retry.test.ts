import { describe, expect, it } from 'vitest';
import { parseRetryAfter, planRetry } from './plan-retry';

import { env } from '@/lib/env';

const DEFAULT = [5_000, 30_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** A seeded generator (mulberry32): the same numbers on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('planRetry', () => {
  it('is the default of WEBHOOK_RETRY_SCHEDULE_MS: 5 s, 30 s, 2 min, 5 min, then 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    const saved = process.env.WEBHOOK_RETRY_SCHEDULE_MS;
    delete process.env.WEBHOOK_RETRY_SCHEDULE_MS;
    process.env.DATABASE_URL ??= 'postgresql://localhost/x';
    try {
      expect(env().WEBHOOK_RETRY_SCHEDULE_MS).toEqual(DEFAULT);
    } finally {
      if (saved !== undefined) process.env.WEBHOOK_RETRY_SCHEDULE_MS = saved;
    }
  });

  it('follows the schedule, then gives up after 10 attempts', () => {
    const mid = () => 0.5; // no jitter
    expect(DEFAULT.map((_, i) => planRetry({ attemptsMade: i + 1, schedule: DEFAULT, random: mid }).delayMs)).toEqual(DEFAULT);
    expect(planRetry({ attemptsMade: 9, schedule: DEFAULT, random: mid }).delayMs).toBe(36_000_000);
    expect(planRetry({ attemptsMade: 10, schedule: DEFAULT, random: mid }).delayMs).toBeNull();
  });

  it('adds at most ±20 % jitter', () => {
    expect(planRetry({ attemptsMade: 1, schedule: DEFAULT, random: () => 0 }).delayMs).toBe(4_000);
    expect(planRetry({ attemptsMade: 1, schedule: DEFAULT, random: () => 0.999999 }).delayMs).toBe(6_000);
    expect(planRetry({ attemptsMade: 2, schedule: DEFAULT, random: () => 0 }).delayMs).toBe(24_000);
    expect(planRetry({ attemptsMade: 2, schedule: DEFAULT, random: () => 0.999999 }).delayMs).toBe(36_000);
  });

  it('spreads 1,000 messages that failed together over the whole ±20 % band (seeded random)', () => {
    const random = seeded(42);
    const delays = Array.from({ length: 1_000 }, () => planRetry({ attemptsMade: 2, schedule: DEFAULT, random }).delayMs!);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(24_000);
    expect(Math.max(...delays)).toBeLessThanOrEqual(36_000);
    // Every 1.2 s slice of the 12 s band gets some, none more than a fifth: no thundering herd.
    const slices = Array.from(
      { length: 10 },
      (_, i) => delays.filter((d) => d >= 24_000 + i * 1_200 && d < 25_200 + i * 1_200).length,
    );
    expect(slices.every((n) => n > 50 && n < 200)).toBe(true);
    // The same seed, the same plan.
    const again = seeded(42);
    expect(Array.from({ length: 1_000 }, () => planRetry({ attemptsMade: 2, schedule: DEFAULT, random: again }).delayMs)).toEqual(
      delays,
    );
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
