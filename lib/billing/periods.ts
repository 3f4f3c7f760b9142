// Billing periods (docs/decisions/invoices.md): months or ISO weeks in the account's close-out time zone. Bounds are
// local midnights found from the zone's offsets either side, so a period across a DST change is exact. Pure.

export const BILLING_PERIOD_KINDS = ['month', 'week'] as const;
export type BillingPeriodKind = (typeof BILLING_PERIOD_KINDS)[number];

export interface Period {
  start: Date;
  end: Date;
}

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `ms` in `timeZone`, as if it were UTC (ms since the epoch). */
function wallClock(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

const offsetAt = (ms: number, timeZone: string) =>
  wallClock(Math.floor(ms / 1000) * 1000, timeZone) - Math.floor(ms / 1000) * 1000;

function localDate(instant: Date, timeZone: string): LocalDate {
  const wall = new Date(wallClock(instant.getTime(), timeZone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

const DAY = 86_400_000;

/**
 * The first instant of a local day (day 0 is the last of the month before): midnight by the offset either side, the
 * earlier when both read back (a repeated hour), else the first instant on that day (clocks that skip midnight).
 */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): Date {
  const naive = Date.UTC(year, month - 1, day);
  const candidates = [...new Set([naive - offsetAt(naive - DAY, timeZone), naive - offsetAt(naive + DAY, timeZone)])].sort(
    (a, b) => a - b,
  );
  const exact = candidates.find((t) => wallClock(t, timeZone) === naive);
  if (exact !== undefined) return new Date(exact);
  const onTheDay = candidates.find((t) => {
    const wall = wallClock(t, timeZone);
    return wall >= naive && wall < naive + DAY;
  });
  return new Date(onTheDay ?? candidates[0] ?? naive);
}

export function periodContaining(instant: Date, kind: BillingPeriodKind, timeZone: string): Period {
  const { year, month, day } = localDate(instant, timeZone);
  if (kind === 'month') {
    return { start: startOfLocalDay(year, month, 1, timeZone), end: startOfLocalDay(year, month + 1, 1, timeZone) };
  }
  // ISO weeks start on Monday: getUTCDay() is 0 for Sunday.
  const sinceMonday = (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
  return {
    start: startOfLocalDay(year, month, day - sinceMonday, timeZone),
    end: startOfLocalDay(year, month, day - sinceMonday + 7, timeZone),
  };
}

/** Started no earlier than the last invoice's end, so that a change of setting or a test close never bills an instant twice. */
export function nextInvoicePeriod(options: {
  oldestOpen: Date;
  lastEnd: Date | null;
  kind: BillingPeriodKind;
  timeZone: string;
}): Period {
  const { oldestOpen, lastEnd, kind, timeZone } = options;
  const anchor = lastEnd && lastEnd > oldestOpen ? lastEnd : oldestOpen;
  const natural = periodContaining(anchor, kind, timeZone);
  return { start: lastEnd && lastEnd > natural.start ? lastEnd : natural.start, end: natural.end };
}
