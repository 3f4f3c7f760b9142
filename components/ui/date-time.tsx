'use client';
import { useCallback, useSyncExternalStore } from 'react';
import { formatDateTime, knownTimeZone } from '@/lib/portal/format';

// The zone the portal writes times in: the browser's own, unless the reader chose UTC (a setting kept in this
// browser, on the Account page). The server renders UTC and hydration starts from it (the server snapshot), then
// React re-renders with the reader's zone: no hydration mismatch, and no zone guessed on the server.

const PREFERENCE_KEY = 'portal.timeZone';
const CHANGED = 'portal:time-zone-changed';
export type TimeZonePreference = 'local' | 'utc';

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function readPreference(): TimeZonePreference {
  try {
    return window.localStorage.getItem(PREFERENCE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    return 'local';
  }
}

/** The browser's own zone (IANA name), UTC on the server. */
export function useBrowserTimeZone(): string {
  return useSyncExternalStore(
    subscribe,
    () => knownTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone),
    () => 'UTC',
  );
}

export function useTimeZonePreference(): [TimeZonePreference, (next: TimeZonePreference) => void] {
  const preference = useSyncExternalStore(subscribe, readPreference, () => 'local' as const);
  const set = useCallback((next: TimeZonePreference) => {
    try {
      window.localStorage.setItem(PREFERENCE_KEY, next);
    } catch {
      // Storage refused (private mode): the choice holds for this page only.
    }
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  return [preference, set];
}

/** The zone to write times in. */
function useTimeZone(): string {
  const browser = useBrowserTimeZone();
  const [preference] = useTimeZonePreference();
  return preference === 'utc' ? 'UTC' : browser;
}

/** formatDateTime in the reader's zone, for text that is not a `<DateTime>` (an aria-label, a sentence). */
export function useFormatDateTime(): (value: string | Date | null | undefined, options?: { seconds?: boolean }) => string {
  const timeZone = useTimeZone();
  return useCallback(
    (value: string | Date | null | undefined, options: { seconds?: boolean } = {}) =>
      formatDateTime(value, { ...options, timeZone }),
    [timeZone],
  );
}

/** A moment in the reader's zone, named; UTC on hover. */
export function DateTime({ value, seconds = false }: { value: string | Date | null | undefined; seconds?: boolean }) {
  const timeZone = useTimeZone();
  if (!value) return <>—</>;
  const text = formatDateTime(value, { seconds, timeZone });
  if (text === '—') return <>—</>;
  const iso = new Date(value).toISOString();
  return (
    <time dateTime={iso} title={timeZone === 'UTC' ? undefined : formatDateTime(value, { seconds, timeZone: 'UTC' })}>
      {text}
    </time>
  );
}
