'use client';
import { Card, CardTitle, useBrowserTimeZone, useTimeZonePreference } from '@/components/ui';

// Where the reader chooses the zone the portal writes times in: their own (the browser's) or UTC, the zone of the
// API's answers and logs. Kept in this browser; every time on every page follows at once.
export function TimeZoneSetting() {
  const browserZone = useBrowserTimeZone();
  const [preference, setPreference] = useTimeZonePreference();
  const choices = [
    { value: 'local', label: `Your time zone (${browserZone})`, hint: 'UTC shows when you hover over a time.' },
    { value: 'utc', label: 'UTC', hint: 'As the API and the request log write times.' },
  ] as const;
  return (
    <Card>
      <fieldset>
        <legend>
          <CardTitle>Times</CardTitle>
        </legend>
        <p className="mt-1 text-sm text-slate-600">
          Every time in the portal is written in the zone you choose, with the zone named after it. In this browser only.
        </p>
        <div className="mt-3 space-y-2">
          {choices.map((choice) => (
            <div key={choice.value} className="flex items-start gap-2 text-sm">
              <input
                id={`time-zone-${choice.value}`}
                type="radio"
                name="time-zone"
                value={choice.value}
                checked={preference === choice.value}
                onChange={() => setPreference(choice.value)}
                aria-describedby={`time-zone-${choice.value}-hint`}
                className="mt-0.5 h-4 w-4 accent-brand-600"
              />
              <div>
                <label htmlFor={`time-zone-${choice.value}`} className="font-medium text-slate-900">
                  {choice.label}
                </label>
                <p id={`time-zone-${choice.value}-hint`} className="text-slate-600">
                  {choice.hint}
                </p>
              </div>
            </div>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}
