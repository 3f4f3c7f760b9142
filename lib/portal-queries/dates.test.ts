import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from '@/lib/portal/format';
import { isoDay, isoInstant } from './dates';

describe('portal dates never throw on a stored value JavaScript cannot show', () => {
  it('formats valid dates as before', () => {
    const date = new Date('2026-11-23T08:00:00Z');
    expect(isoDay(date)).toBe('2026-11-23');
    expect(isoInstant(date)).toBe('2026-11-23T08:00:00.000Z');
  });

  it.each([
    ['an Invalid Date', new Date(Number.NaN)],
    ['a year past 9999', new Date('+010000-01-01T00:00:00Z')],
    ['a year before 0000', new Date('-000001-01-01T00:00:00Z')],
    ['null', null],
  ])('%s is "" for a day', (_name, date) => {
    expect(isoDay(date)).toBe('');
  });

  it('an Invalid Date is "" for an instant, and the page formatters show a dash', () => {
    expect(isoInstant(new Date(Number.NaN))).toBe('');
    expect(formatDate('')).toBe('—');
    expect(formatDate('not a date')).toBe('—');
    expect(formatDateTime('0000-99-99')).toBe('—');
    expect(formatDateTime(new Date(Number.NaN))).toBe('—');
    expect(formatDate('2026-11-23')).toBe('Nov 23, 2026');
  });
});
