import { describe, expect, it } from 'vitest';
import { REFUSALS_KEPT, shouldRecordRefusal } from './writer';

// The 429 throttle of the request log: one line a second per token, and bounded memory that forgets one token at a
// time (the one refused longest ago), never all of them at once.

describe('shouldRecordRefusal', () => {
  it('records the first refusal of each second per token', () => {
    const t = 1_000_000;
    expect(shouldRecordRefusal('tok_a', t)).toBe(true);
    expect(shouldRecordRefusal('tok_a', t + 500)).toBe(false);
    expect(shouldRecordRefusal('tok_b', t + 500)).toBe(true);
    expect(shouldRecordRefusal('tok_a', t + 1_000)).toBe(true);
  });

  it('past REFUSALS_KEPT tokens forgets the one recorded longest ago, not every token at once', () => {
    const t = 2_000_000;
    for (let i = 0; i < REFUSALS_KEPT + 50; i++) expect(shouldRecordRefusal(`rotating_${i}`, t + 1)).toBe(true);
    // Still within their second: every token recorded after the first 50 is still throttled (a clear() would free them all).
    for (const i of [50, 51, 5_000, REFUSALS_KEPT + 49])
      expect(shouldRecordRefusal(`rotating_${i}`, t + 2), `rotating_${i}`).toBe(false);
    // The first ones were forgotten (recorded longest ago), so their next refusal is a line again.
    expect(shouldRecordRefusal('rotating_0', t + 3)).toBe(true);
  });
});
