import { describe, expect, it } from 'vitest';
import { RecentWriters } from './read-your-writes';

describe('RecentWriters', () => {
  it('keeps an account on the primary for the window after its write, then lets it go', () => {
    const writers = new RecentWriters(5_000);
    expect(writers.wroteRecently('a', 0)).toBe(false);
    writers.noteWrite('a', 1_000);
    expect(writers.wroteRecently('a', 1_000)).toBe(true);
    expect(writers.wroteRecently('a', 5_999)).toBe(true);
    expect(writers.wroteRecently('b', 2_000)).toBe(false);
    expect(writers.wroteRecently('a', 6_000)).toBe(false);
  });

  it('a later write extends the window', () => {
    const writers = new RecentWriters(5_000);
    writers.noteWrite('a', 0);
    writers.noteWrite('a', 4_000);
    expect(writers.wroteRecently('a', 8_000)).toBe(true);
    expect(writers.wroteRecently('a', 9_000)).toBe(false);
  });
});
