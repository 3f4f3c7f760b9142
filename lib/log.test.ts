import { describe, expect, it, vi } from 'vitest';
import { isoTime } from './log';

describe('isoTime', () => {
  it("writes pino's time field as an ISO date, the current millisecond's", () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T08:00:00.123Z') });
    try {
      expect(isoTime()).toBe(',"time":"2026-11-21T08:00:00.123Z"');
      vi.setSystemTime(new Date('2026-11-21T08:00:00.124Z'));
      expect(isoTime()).toBe(',"time":"2026-11-21T08:00:00.124Z"');
      expect(isoTime()).toBe(',"time":"2026-11-21T08:00:00.124Z"');
    } finally {
      vi.useRealTimers();
    }
  });
});
