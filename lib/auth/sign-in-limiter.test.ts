import { describe, expect, it } from 'vitest';
import { waitInWords } from './limiters';
import { slowdownMs } from './sign-in-limiter';

// The e-mail-wide answer to many failures is a delay, never a refusal.
describe('slowdownMs', () => {
  const settings = { SIGN_IN_SLOWDOWN_AFTER: 10, SIGN_IN_SLOWDOWN_MAX_MS: 3_000 };

  it('waits nothing below the threshold, then 250 ms more per failure, up to the ceiling', () => {
    expect(slowdownMs(0, settings)).toBe(0);
    expect(slowdownMs(9, settings)).toBe(0);
    expect(slowdownMs(10, settings)).toBe(250);
    expect(slowdownMs(13, settings)).toBe(1_000);
    expect(slowdownMs(21, settings)).toBe(3_000);
    expect(slowdownMs(10_000, settings)).toBe(3_000);
  });
});

describe('waitInWords', () => {
  it.each([
    [0, '1 second'],
    [1, '1 second'],
    [0.2, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [900, '15 minutes'],
  ])('%d s is "%s", never "minute(s)"', (seconds, words) => {
    expect(waitInWords(seconds)).toBe(words);
  });
});
