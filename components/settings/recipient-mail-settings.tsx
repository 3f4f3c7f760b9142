'use client';
import { useState, type FormEvent } from 'react';
import { useCan } from '@/components/layout/portal-context';
import { Card, CardTitle } from '@/components/ui';
import { CheckboxField } from './checkbox-field';
import { SaveRow } from './save-row';
import { SettingLoader, useSaveSetting, type SettingSource } from './setting-loader';
import { RECIPIENT_MAIL_STATUSES, type RecipientMailStatus, type TRecipientMailSettings } from '@/lib/schemas/public-tracking';

const LABELS: Record<RecipientMailStatus, { label: string; hint: string }> = {
  out_for_delivery: { label: 'Out for delivery', hint: 'The morning it leaves for its last mile.' },
  delivered: { label: 'Delivered', hint: 'When the carrier has delivered it.' },
  exception: { label: 'Delivery exception', hint: 'When something holds it up.' },
};

/** The account's opt-in to e-mail its recipients (a live package's ToEmail) at some statuses. */
export function RecipientMailSettingsForm() {
  return (
    <SettingLoader<TRecipientMailSettings> name="recipient-mail" what="the recipient e-mail setting">
      {(initial, source) => <Form initial={initial} source={source} />}
    </SettingLoader>
  );
}

function Form({ initial, source }: { initial: TRecipientMailSettings; source: SettingSource }) {
  const canChange = useCan('settings:manage');
  const [chosen, setChosen] = useState<RecipientMailStatus[]>(initial.statuses);
  const save = useSaveSetting<TRecipientMailSettings, TRecipientMailSettings>(source);
  function toggle(status: RecipientMailStatus, on: boolean) {
    setChosen((list) => RECIPIENT_MAIL_STATUSES.filter((s) => (s === status ? on : list.includes(s))));
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ statuses: chosen });
  }
  return (
    <Card>
      <CardTitle>E-mail your recipients</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        When a live package that has a <code>ToEmail</code> reaches a status ticked here, we e-mail that address once, with a link
        to the package&apos;s public tracking page (<code>/track/…</code>) and a link to unsubscribe. The e-mail names your
        company as on the label. This setting is for the whole account; test packages are never e-mailed.
      </p>
      <form onSubmit={submit} aria-label="E-mail your recipients" className="mt-4">
        <fieldset disabled={!canChange} className="space-y-3">
          <legend className="text-sm font-medium text-slate-800">E-mail the recipient when the package is</legend>
          {RECIPIENT_MAIL_STATUSES.map((status) => (
            <CheckboxField
              key={status}
              name="statuses"
              value={status}
              checked={chosen.includes(status)}
              onChange={(e) => toggle(status, e.target.checked)}
              label={LABELS[status].label}
              hint={LABELS[status].hint}
            />
          ))}
          <SaveRow
            save={save}
            canChange={canChange}
            what="change settings"
            permission="settings:manage"
            saved={(data) =>
              `Saved: ${
                data.statuses.length === 0
                  ? 'recipients are not e-mailed'
                  : `recipients are e-mailed at ${data.statuses.map((s) => LABELS[s].label.toLowerCase()).join(', ')}`
              }.`
            }
          />
        </fieldset>
      </form>
    </Card>
  );
}
