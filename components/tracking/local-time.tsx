'use client';
import { useSyncExternalStore } from 'react';

const OPTIONS: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
const utc = new Intl.DateTimeFormat('en-US', { ...OPTIONS, timeZone: 'UTC' });
const nothingToWatch = () => () => undefined;

/** A moment, in UTC as the server renders it, then in the reader's own time zone once the page runs in a browser. */
export function LocalTime({ iso }: { iso: string }) {
  const inBrowser = useSyncExternalStore(
    nothingToWatch,
    () => true,
    () => false,
  );
  const date = new Date(iso);
  return <time dateTime={iso}>{(inBrowser ? new Intl.DateTimeFormat(undefined, OPTIONS) : utc).format(date)}</time>;
}
