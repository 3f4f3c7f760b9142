// Display formatting shared by portal pages (client-safe). Times are shown in UTC so that what the
// portal says matches API responses and logs, whatever the viewer's time zone.

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
const date = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** `seconds`: for logs, where attempts a few seconds apart must read apart. */
export function formatDateTime(value: string | Date | null | undefined, options: { seconds?: boolean } = {}): string {
  if (!value) return '—';
  return (options.seconds ? dateTimeSeconds : dateTime).format(new Date(value));
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return date.format(new Date(value));
}

export function formatMoney(amount: string): string {
  return `$${amount}`;
}
