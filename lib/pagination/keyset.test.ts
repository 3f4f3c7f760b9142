import { describe, expect, it } from 'vitest';
import { decodeCursor, decodePageKey, encodeCursor, encodePageKey, readCursor } from './keyset';

describe('keyset cursors', () => {
  it('round-trips a (created_at, kind, id) key, for the API and for a pager link', () => {
    const key = { t: '2026-11-23T08:00:00.123Z', k: 1, i: 'MAN-ABCDEF0123456789' };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
    expect(readCursor(encodeCursor(key))).toEqual(key);
  });

  it('refuses a real cursor with characters appended, whatever its length', () => {
    // Ids of every length mod 3 give encodings of every length mod 4; Node's decoder would skip a trailing character.
    for (const i of ['M', 'MA', 'MAN', 'MAN-', 'MAN-1', 'MAN-12']) {
      const token = encodeCursor({ t: '2026-11-23T08:00:00.123Z', k: 0, i });
      for (const extra of ['x', 'A', '-', 'AA', 'AAA']) expect(() => decodeCursor(token + extra)).toThrow();
    }
  });

  it('round-trips a page key up to the bigint range', () => {
    for (const key of [0n, 1n, 99n, 9_223_372_036_854_775_807n]) {
      for (const seen of [0, 100, 1_000_000]) expect(decodePageKey(encodePageKey({ key, seen }))).toEqual({ key, seen });
    }
  });

  it('treats anything else as no cursor in a pager link, and as a 422 naming `cursor` in the API', () => {
    const notOurs = [
      '',
      '%',
      'n',
      'n-1',
      'nzzzzzzzzzzzzzz',
      '...',
      Buffer.from('x|y|z').toString('base64url'),
      'a'.repeat(300),
      Buffer.from("1|MAN' OR 1=1").toString('base64url'),
      Buffer.from(JSON.stringify(['2026-11-23T08:00:00.123Z', 0, "MAN' OR 1=1"])).toString('base64url'),
      // Out of range: a time no list holds, a kind that is no branch, a text id where the list's ids are numbers.
      Buffer.from('99999999999999999|MAN-1').toString('base64url'),
      encodeCursor({ t: '2100-01-01T00:00:00.000Z', k: 0, i: 'MAN-1' }),
      encodeCursor({ t: '1999-12-31T23:59:59.999Z', k: 0, i: 'MAN-1' }),
      encodeCursor({ t: '', k: 0, i: 'MAN-1' }),
      encodeCursor({ t: '2026-11-23T08:00:00.123Z', k: 2, i: 'MAN-1' }),
    ];
    for (const token of notOurs) {
      expect(readCursor(token)).toBeUndefined();
      if (token)
        expect(() => decodeCursor(token)).toThrow(
          expect.objectContaining({ details: [{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }] }),
        );
    }
    expect(readCursor(undefined)).toBeUndefined();
    expect(() => decodeCursor(encodeCursor({ t: '2026-11-23T08:00:00.123Z', k: 0, i: 'MAN-1' }), 'numeric')).toThrow();
    for (const token of [
      '',
      'n',
      'n1',
      'x1.1',
      'n-1.0',
      'n1.-1',
      'nzzzzzzzzzzzzz.1',
      'nzzzzzzzzzzzzzz.1',
      'n1.1\u0000',
      'n1.zzzzzzzzz',
    ]) {
      expect(decodePageKey(token)).toBeUndefined();
    }
  });
});

describe('a position to the microsecond', () => {
  it('round-trips, and the millisecond part must still be a real instant', () => {
    const key = { t: '2026-11-23T08:00:00.123456Z', k: 0, i: '42' };
    expect(decodeCursor(encodeCursor(key), 'numeric')).toEqual(key);
    for (const t of ['2026-02-30T08:00:00.123456Z', '2026-11-23T08:00:00.1234Z', '2026-11-23T08:00:00.1234567Z']) {
      expect(() => decodeCursor(encodeCursor({ t, k: 0, i: '42' }), 'numeric')).toThrow();
    }
  });
});
