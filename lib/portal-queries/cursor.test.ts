import { describe, expect, it } from 'vitest';
import { decodePageKey, decodeTimeKey, encodePageKey, encodeTimeKey } from './cursor';

describe('keyset cursors', () => {
  it('round-trips a (created_at, id) key', () => {
    const key = { createdAt: new Date('2026-11-23T08:00:00.123Z'), id: 'MAN-ABCDEF0123456789' };
    expect(decodeTimeKey(encodeTimeKey(key))).toEqual(key);
  });

  it('round-trips a page key up to the bigint range', () => {
    for (const key of [0n, 1n, 99n, 9_223_372_036_854_775_807n]) {
      for (const seen of [0, 100, 1_000_000]) expect(decodePageKey(encodePageKey({ key, seen }))).toEqual({ key, seen });
    }
  });

  it('treats anything else as no cursor', () => {
    for (const token of ['', '%', 'n', 'n-1', 'nzzzzzzzzzzzzzz', '...', Buffer.from('x|y|z').toString('base64url'), 'a'.repeat(300), Buffer.from("1|MAN' OR 1=1").toString('base64url')]) {
      expect(decodeTimeKey(token)).toBeUndefined();
    }
    for (const token of ['', 'n', 'n1', 'x1.1', 'n-1.0', 'n1.-1', 'nzzzzzzzzzzzzz.1', 'nzzzzzzzzzzzzzz.1', 'n1.1\u0000', 'n1.zzzzzzzzz']) {
      expect(decodePageKey(token)).toBeUndefined();
    }
    expect(decodeTimeKey(Buffer.from('99999999999999999|MAN-1').toString('base64url'))).toBeUndefined();
    // Times no row has, which PostgreSQL refused (a negative year): no cursor, never a query that fails.
    for (const ms of ['-999999999999999', '-62198755200001', '-1', '0', '946684799999', '4102444800000', '999999999999999']) {
      expect(decodeTimeKey(Buffer.from(`${ms}|MAN-1`).toString('base64url')), ms).toBeUndefined();
    }
    expect(decodeTimeKey(Buffer.from('946684800000|MAN-1').toString('base64url'))).toEqual({ createdAt: new Date('2000-01-01T00:00:00.000Z'), id: 'MAN-1' });
  });
});
