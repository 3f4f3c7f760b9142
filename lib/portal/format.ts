// Times in UTC, so the portal matches API responses and logs whatever the viewer's time zone.

const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});
const dateTimeSeconds = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

// Intl throws a RangeError on an invalid date, which would blank the page.
function validDate(value: string | Date | null | undefined): Date | undefined {
  if (!value) return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

export function formatDateTime(value: string | Date | null | undefined, options: { seconds?: boolean } = {}): string {
  const parsed = validDate(value);
  return parsed ? (options.seconds ? dateTimeSeconds : dateTime).format(parsed) : '—';
}

export function formatMoney(amount: string): string {
  return `$${amount}`;
}
