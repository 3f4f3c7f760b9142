import { describe, expect, it } from 'vitest';
import { nextInvoicePeriod, periodContaining, startOfLocalDay } from './periods';

const iso = (p: { start: Date; end: Date }) => [p.start.toISOString(), p.end.toISOString()];

describe('billing periods', () => {
  it('a month in UTC is its calendar month', () => {
    expect(iso(periodContaining(new Date('2026-11-15T12:00:00Z'), 'month', 'UTC'))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    ]);
    expect(iso(periodContaining(new Date('2026-12-31T23:59:59.999Z'), 'month', 'UTC'))).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
  });

  it('a month whose end crosses a daylight-saving change is an hour longer (New York, November)', () => {
    const p = periodContaining(new Date('2026-11-10T00:00:00Z'), 'month', 'America/New_York');
    expect(iso(p)).toEqual(['2026-11-01T04:00:00.000Z', '2026-12-01T05:00:00.000Z']);
    expect(p.end.getTime() - p.start.getTime()).toBe((30 * 24 + 1) * 3_600_000);
  });

  it('a month holding the spring change is an hour shorter (Berlin, March)', () => {
    const p = periodContaining(new Date('2026-03-29T12:00:00Z'), 'month', 'Europe/Berlin');
    expect(iso(p)).toEqual(['2026-02-28T23:00:00.000Z', '2026-03-31T22:00:00.000Z']);
    expect(p.end.getTime() - p.start.getTime()).toBe((31 * 24 - 1) * 3_600_000);
  });

  it('an instant just before local midnight belongs to the month it is in locally, not in UTC', () => {
    // 2026-12-01T03:30Z is 22:30 on 30 November in New York.
    expect(iso(periodContaining(new Date('2026-12-01T03:30:00Z'), 'month', 'America/New_York'))[0]).toBe(
      '2026-11-01T04:00:00.000Z',
    );
    expect(iso(periodContaining(new Date('2026-12-01T05:00:00Z'), 'month', 'America/New_York'))[0]).toBe(
      '2026-12-01T05:00:00.000Z',
    );
  });

  it('a zone ahead of UTC: Tokyo and Kolkata (half-hour offset)', () => {
    expect(iso(periodContaining(new Date('2026-11-30T16:00:00Z'), 'month', 'Asia/Tokyo'))[0]).toBe('2026-11-30T15:00:00.000Z');
    expect(iso(periodContaining(new Date('2026-11-05T00:00:00Z'), 'month', 'Asia/Kolkata'))).toEqual([
      '2026-10-31T18:30:00.000Z',
      '2026-11-30T18:30:00.000Z',
    ]);
  });

  it('a day whose midnight does not exist starts when the clocks jump (Santiago, September)', () => {
    // Chile moves 24:00 to 01:00 on the first Saturday night of September: 6 September 2026 begins at 01:00 -03.
    const start = startOfLocalDay(2026, 9, 6, 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('weeks are ISO weeks, Monday to Monday, in the zone', () => {
    // Sunday 29 November 2026.
    expect(iso(periodContaining(new Date('2026-11-29T10:00:00Z'), 'week', 'UTC'))).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
    ]);
    // Monday 00:00 is the week's first instant.
    expect(iso(periodContaining(new Date('2026-11-30T00:00:00Z'), 'week', 'UTC'))[0]).toBe('2026-11-30T00:00:00.000Z');
    // A week across the year's end.
    expect(iso(periodContaining(new Date('2027-01-01T12:00:00Z'), 'week', 'UTC'))).toEqual([
      '2026-12-28T00:00:00.000Z',
      '2027-01-04T00:00:00.000Z',
    ]);
  });

  it('a week across the autumn change is 169 hours (New York)', () => {
    const p = periodContaining(new Date('2026-11-03T12:00:00Z'), 'week', 'America/New_York');
    expect(iso(p)).toEqual(['2026-11-02T05:00:00.000Z', '2026-11-09T05:00:00.000Z']);
    const before = periodContaining(new Date('2026-10-30T12:00:00Z'), 'week', 'America/New_York');
    expect(before.end.getTime()).toBe(p.start.getTime());
    expect(before.end.getTime() - before.start.getTime()).toBe(169 * 3_600_000);
  });

  it('periods tile: each ends where the next starts, every day of two years in three zones', () => {
    for (const zone of ['UTC', 'America/New_York', 'Australia/Lord_Howe']) {
      for (const kind of ['month', 'week'] as const) {
        let p = periodContaining(new Date('2026-01-01T12:00:00Z'), kind, zone);
        for (let i = 0; i < (kind === 'month' ? 24 : 104); i++) {
          const next = periodContaining(p.end, kind, zone);
          expect(next.start.getTime()).toBe(p.end.getTime());
          expect(periodContaining(new Date(p.end.getTime() - 1), kind, zone).start.getTime()).toBe(p.start.getTime());
          p = next;
        }
      }
    }
  });

  it("the next invoice starts at the last one's end when that is inside the period (a test-mode close, a changed setting)", () => {
    const lastEnd = new Date('2026-11-15T10:00:00Z');
    expect(
      iso(nextInvoicePeriod({ oldestOpen: new Date('2026-11-20T00:00:00Z'), lastEnd, kind: 'month', timeZone: 'UTC' })),
    ).toEqual(['2026-11-15T10:00:00.000Z', '2026-12-01T00:00:00.000Z']);
    // A straggler older than the last invoice goes on the next one.
    expect(
      iso(nextInvoicePeriod({ oldestOpen: new Date('2026-10-02T00:00:00Z'), lastEnd, kind: 'month', timeZone: 'UTC' }))[0],
    ).toBe('2026-11-15T10:00:00.000Z');
    // Nothing invoiced yet: the oldest entry's period.
    expect(
      iso(nextInvoicePeriod({ oldestOpen: new Date('2026-10-02T00:00:00Z'), lastEnd: null, kind: 'week', timeZone: 'UTC' })),
    ).toEqual(['2026-09-28T00:00:00.000Z', '2026-10-05T00:00:00.000Z']);
    // A monthly invoice, then weekly: the week holding the month's end starts at the month's end.
    const monthEnd = new Date('2026-12-01T00:00:00Z');
    expect(
      iso(nextInvoicePeriod({ oldestOpen: new Date('2026-12-01T08:00:00Z'), lastEnd: monthEnd, kind: 'week', timeZone: 'UTC' })),
    ).toEqual(['2026-12-01T00:00:00.000Z', '2026-12-07T00:00:00.000Z']);
  });
});
