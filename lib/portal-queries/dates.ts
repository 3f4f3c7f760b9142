// Dates as the portal's JSON sends them. Stored rows may predate the date rules (a year 0000 was once
// accepted and reads back as an Invalid Date): such a value becomes "" rather than a RangeError that
// takes the whole list down.

function valid(date: Date | null | undefined): date is Date {
  return date instanceof Date && !Number.isNaN(date.getTime());
}

/** YYYY-MM-DD in UTC, or "" when the stored value is not a date JavaScript can show. */
export function isoDay(date: Date | null | undefined): string {
  // Before year 1 (a BC date) is no day a shipper wrote: pg's driver reads it as year 0000 or earlier, Prisma as an
  // Invalid Date; both show as no day, so that the list and the detail agree.
  if (!valid(date) || date.getUTCFullYear() < 1) return '';
  const iso = date.toISOString();
  // Years outside 0000-9999 print as ±YYYYYY-MM-DD.
  return /^\d{4}-/.test(iso) ? iso.slice(0, 10) : '';
}

/** ISO 8601 instant, or "" when the stored value is not a date JavaScript can show. */
export function isoInstant(date: Date | null | undefined): string {
  return valid(date) ? date.toISOString() : '';
}
