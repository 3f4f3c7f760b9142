'use client';
import { useState, type FormEvent } from 'react';
import { useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { RoleNote } from '@/components/layout/role';
import { Alert, Button, Card, CardTitle, Field, Input, RequestLink, Select } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
import { COMMON_TIME_ZONES } from '@/lib/schemas/close-out';
import type { TCloseOutSettingsResponse } from '@/lib/schemas/portal-responses';
import { SettingLoader, useSaveSetting, type SettingSource } from './setting-loader';

const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;

/** The automatic close of daily manifests in this environment: a cut-off hour and its time zone, or none. */
export function CloseOutSettingsForm() {
  return (
    <SettingLoader<TCloseOutSettingsResponse> name="close-out" what="the close-out setting">
      {(initial, source) => <Form initial={initial} source={source} />}
    </SettingLoader>
  );
}

function Form({ initial, source }: { initial: TCloseOutSettingsResponse; source: SettingSource }) {
  const portal = usePortalEnvironment();
  // A role without settings:manage sees the settings, disabled, and why.
  const canChange = useCan('settings:manage');
  const [hour, setHour] = useState(initial.cutoff_hour === null ? '' : String(initial.cutoff_hour));
  const [zone, setZone] = useState(initial.time_zone);
  const save = useSaveSetting<TCloseOutSettingsResponse, TCloseOutSettingsResponse>(source);
  const fieldError = (path: string) =>
    save.error instanceof PortalError ? save.error.details?.find((d) => d.path === path)?.message : undefined;
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ cutoff_hour: hour === '' ? null : Number(hour), time_zone: zone.trim() });
  }
  const zones: string[] = COMMON_TIME_ZONES.includes(zone as (typeof COMMON_TIME_ZONES)[number])
    ? [...COMMON_TIME_ZONES]
    : [zone, ...COMMON_TIME_ZONES];
  return (
    <Card>
      <CardTitle>Automatic close-out</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        At this hour on a daily manifest&apos;s ManifestDate, the manifest closes itself, as “Close manifest” does: it takes no
        more packages and your webhooks get <code>manifest.closed</code>. This setting is for the {portal.environment} environment
        only.
      </p>
      <form onSubmit={submit} aria-label="Automatic close-out" className="mt-4">
        <fieldset disabled={!canChange} className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Cut-off hour"
            error={fieldError('cutoff_hour')}
            hint="None: daily manifests close only when you close them."
          >
            <Select value={hour} onChange={(e) => setHour(e.target.value)}>
              <option value="">None (no automatic close)</option>
              {Array.from({ length: 24 }, (_, h) => (
                <option key={h} value={String(h)}>
                  {hourLabel(h)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Time zone" error={fieldError('time_zone')} hint="An IANA name, e.g. America/Chicago.">
            <Input
              list="close-out-zones"
              value={zone}
              onChange={(e) => setZone(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
          <datalist id="close-out-zones">
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <div className="flex items-center gap-3 sm:col-span-2">
            <Button type="submit" loading={save.isPending} disabled={!canChange}>
              Save
            </Button>
            {canChange ? null : <RoleNote what="change settings" permission="settings:manage" />}
            {save.isSuccess ? (
              <Alert tone="success">
                Saved:{' '}
                {save.data.cutoff_hour === null
                  ? 'no automatic close'
                  : `closes at ${hourLabel(save.data.cutoff_hour)} ${save.data.time_zone}`}
                .
              </Alert>
            ) : null}
          </div>
          {save.isError && !fieldError('cutoff_hour') && !fieldError('time_zone') ? (
            <div className="sm:col-span-2">
              <Alert tone="danger">
                {save.error instanceof Error ? save.error.message : 'Could not save.'}
                <RequestLink error={save.error} />
              </Alert>
            </div>
          ) : save.isError ? (
            <RequestLink error={save.error} className="block text-xs text-slate-700 sm:col-span-2" />
          ) : null}
        </fieldset>
      </form>
    </Card>
  );
}
