import { z } from 'zod';

// The automatic close-out setting (lib/close-out/cutoff.ts), as the portal's settings form and portal-api send it.
// Whether PostgreSQL knows the zone is the server's check (isKnownTimeZone); here only its shape.

export const ZCloseOutSettingsRequest = z.strictObject({
  /** 0–23: the hour on a manifest's ManifestDate at which it closes itself; null: no automatic close. */
  cutoff_hour: z
    .number({ error: 'must be a whole hour from 0 to 23, or null for no automatic close' })
    .int('must be a whole hour from 0 to 23')
    .min(0, 'must be a whole hour from 0 to 23')
    .max(23, 'must be a whole hour from 0 to 23')
    .nullable(),
  /** An IANA time zone name, e.g. America/New_York. */
  time_zone: z
    .string({ error: 'must be a time zone name such as America/New_York' })
    .trim()
    .min(1, 'is required')
    .max(64, 'must be at most 64 characters')
    .regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, 'must be a time zone name such as America/New_York'),
});

/** Time zones offered first in the form (any name PostgreSQL knows is accepted). */
export const COMMON_TIME_ZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Toronto',
  'America/Vancouver',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Tokyo',
] as const;
