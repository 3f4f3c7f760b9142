import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountTag, issueQuoteId, QUOTE_TTL_MS, quoteKeyFrom, readQuoteId, type QuoteClaims } from './quote-id';

const KEY = quoteKeyFrom(Buffer.alloc(32, 7));
const OTHER_KEY = quoteKeyFrom(Buffer.alloc(32, 9));
const NOW = new Date('2026-11-29T10:00:00Z');
const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const CLAIMS: QuoteClaims = {
  environment: 'test',
  service: 'Carrier Express',
  cardVersion: 2,
  amount: '12.40',
  weightLb: '3',
  length: '10',
  width: '8',
  height: '6',
  from: '10001',
  to: '90210',
  expiresAt: new Date(NOW.getTime() + QUOTE_TTL_MS),
};
const who = { accountId: ACCOUNT, environment: 'test' as const, now: NOW };

describe('quote ids', () => {
  it('read back exactly what they were issued for', () => {
    const id = issueQuoteId(KEY, ACCOUNT, CLAIMS);
    expect(id).toMatch(/^qt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    const reading = readQuoteId([KEY], id, who);
    expect(reading).toEqual({
      ok: true,
      claims: { ...CLAIMS, expiresAt: new Date(Math.floor(CLAIMS.expiresAt.getTime() / 1000) * 1000) },
    });
  });

  it('name the reason a quote does not hold: another account, the other environment, expired', () => {
    const id = issueQuoteId(KEY, ACCOUNT, CLAIMS);
    expect(readQuoteId([KEY], id, { ...who, accountId: '22222222-2222-4222-8222-222222222222' })).toEqual({
      ok: false,
      reason: 'other_account',
    });
    expect(readQuoteId([KEY], id, { ...who, environment: 'live' })).toEqual({ ok: false, reason: 'other_environment' });
    expect(readQuoteId([KEY], id, { ...who, now: new Date(NOW.getTime() + QUOTE_TTL_MS + 1000) })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(readQuoteId([KEY], id, { ...who, now: new Date(NOW.getTime() + QUOTE_TTL_MS - 1000) }).ok).toBe(true);
  });

  it('refuse any altered part as forged: a cheaper amount, a later expiry, another key', () => {
    const id = issueQuoteId(KEY, ACCOUNT, CLAIMS);
    const [payload, mac] = id.slice(3).split('.') as [string, string];
    const text = Buffer.from(payload, 'base64url').toString();
    const cheaper = Buffer.from(text.replace('|12.40|', '|1.00|')).toString('base64url');
    expect(readQuoteId([KEY], `qt_${cheaper}.${mac}`, who)).toEqual({ ok: false, reason: 'forged' });
    const later = issueQuoteId(OTHER_KEY, ACCOUNT, { ...CLAIMS, expiresAt: new Date(NOW.getTime() + 100 * QUOTE_TTL_MS) });
    expect(readQuoteId([KEY], later, who)).toEqual({ ok: false, reason: 'forged' });
    // A key rotation keeps the earlier key's quotes for their 24 hours.
    expect(readQuoteId([KEY, OTHER_KEY], later, who).ok).toBe(true);
    const flipped = mac.startsWith('A') ? `B${mac.slice(1)}` : `A${mac.slice(1)}`;
    expect(readQuoteId([KEY], `qt_${payload}.${flipped}`, who)).toEqual({ ok: false, reason: 'forged' });
  });

  it('take garbage as malformed, never throwing', () => {
    for (const garbage of [
      '',
      'qt_',
      'qt_.',
      'qt_abc',
      'qt_abc.def',
      'x'.repeat(5000),
      'qt_\u0000.AAAAAAAAAAAAAAAAAAAAAA',
      `qt_${'A'.repeat(700)}.AAAAAAAAAAAAAAAAAAAAAA`,
    ]) {
      expect(readQuoteId([KEY], garbage, who)).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(readQuoteId([KEY], 'qt_abc.AAAAAAAAAAAAAAAAAAAAAA', who)).toEqual({ ok: false, reason: 'forged' });
  });

  it('tag accounts with a keyed hash, not their id', () => {
    expect(accountTag(KEY, ACCOUNT)).not.toContain('1111');
    expect(accountTag(KEY, ACCOUNT)).not.toBe(accountTag(OTHER_KEY, ACCOUNT));
  });

  it('remembers tags per key and account without ever answering another key or account with them', () => {
    const fresh = (key: typeof KEY, account: string) =>
      createHmac('sha256', key.mac).update(`account:${account}`).digest().subarray(0, 9).toString('base64url');
    // Past the number remembered, so that the forgetting is crossed too; each asked twice, under both keys.
    const accounts = Array.from({ length: 10_050 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const account of [...accounts, ...accounts.slice(0, 60), ...accounts.slice(-60)]) {
      expect(accountTag(KEY, account)).toBe(fresh(KEY, account));
      expect(accountTag(OTHER_KEY, account)).toBe(fresh(OTHER_KEY, account));
    }
  });
});
