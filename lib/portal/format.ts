// One way to write a moment everywhere in the portal: the date, the time and the zone's name, in the zone given.
// Pages pass the reader's zone (components/ui/date-time.tsx); the server, which cannot know it, writes UTC, and
// the browser replaces that once it runs, so a server-rendered page hydrates without a mismatch.

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, seconds: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${seconds}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      timeZone,
      timeZoneName: 'short',
    });
    formats.set(key, format);
  }
  return format;
}

// Intl throws a RangeError on an invalid date, which would blank the page.
function validDate(value: string | Date | null | undefined): Date | undefined {
  if (!value) return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** A zone Intl knows, else UTC (an unknown zone would throw). */
export function knownTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function formatDateTime(
  value: string | Date | null | undefined,
  options: { seconds?: boolean; timeZone?: string } = {},
): string {
  const parsed = validDate(value);
  return parsed ? formatter(options.timeZone ?? 'UTC', options.seconds ?? false).format(parsed) : '—';
}

export function formatMoney(amount: string): string {
  return `$${amount}`;
}
