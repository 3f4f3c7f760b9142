'use client';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useCan } from '@/components/layout/portal-context';
import { Card, CardTitle } from '@/components/ui';
import { CheckboxField } from './checkbox-field';
import { SaveRow } from './save-row';
import { SettingLoader, useSaveSetting } from './setting-loader';

/**
 * A setting that is one yes/no field of its own object (customs enforcement, public returns): the card, the checkbox
 * and the save row, loaded and saved through SettingLoader. `saidOnSave` says what the stored value now does.
 */
export function ToggleSetting<K extends string>(props: {
  name: string;
  field: K;
  title: string;
  children: ReactNode;
  label: string;
  hint: string;
  saidOnSave: (on: boolean) => string;
}) {
  return (
    <SettingLoader<Record<K, boolean>> name={props.name} what={`the ${props.title.toLowerCase()} setting`}>
      {(initial, source) => <Toggle {...props} initial={initial[props.field]} source={source} />}
    </SettingLoader>
  );
}

function Toggle<K extends string>({
  field,
  title,
  children,
  label,
  hint,
  saidOnSave,
  initial,
  source,
}: Parameters<typeof ToggleSetting<K>>[0] & { initial: boolean; source: Parameters<typeof useSaveSetting>[0] }) {
  const canChange = useCan('settings:manage');
  const [on, setOn] = useState(initial);
  const save = useSaveSetting<Record<K, boolean>, Record<K, boolean>>(source);
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ [field]: on } as Record<K, boolean>);
  }
  return (
    <Card>
      <CardTitle>{title}</CardTitle>
      <p className="mt-1 text-sm text-slate-600">{children}</p>
      <form onSubmit={submit} aria-label={title} className="mt-4">
        <fieldset disabled={!canChange} className="space-y-3">
          <legend className="sr-only">{title}</legend>
          <CheckboxField name={field} checked={on} onChange={(e) => setOn(e.target.checked)} label={label} hint={hint} />
          <SaveRow
            save={save}
            canChange={canChange}
            what="change settings"
            permission="settings:manage"
            saved={(data) => saidOnSave(data[field])}
          />
        </fieldset>
      </form>
    </Card>
  );
}
