'use client';
import { useState, type FormEvent } from 'react';
import { useCan } from '@/components/layout/portal-context';
import { Card, CardTitle } from '@/components/ui';
import { SaveRow } from './save-row';
import { SettingLoader, useSaveSetting, type SettingSource } from './setting-loader';
import type { TReturnSettings } from '@/lib/schemas/public-returns';

/** The account's permission for the public tracking page to offer its recipients a return. */
export function ReturnSettingsForm() {
  return (
    <SettingLoader<TReturnSettings> name="returns" what="the returns setting">
      {(initial, source) => <Form initial={initial} source={source} />}
    </SettingLoader>
  );
}

function Form({ initial, source }: { initial: TReturnSettings; source: SettingSource }) {
  const canChange = useCan('settings:manage');
  const [allowed, setAllowed] = useState(initial.public_returns);
  const save = useSaveSetting<TReturnSettings, TReturnSettings>(source);
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ public_returns: allowed });
  }
  return (
    <Card>
      <CardTitle>Returns from the tracking page</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        When allowed, the public tracking page of a live package that is out for delivery or delivered offers &ldquo;Return this
        parcel&rdquo;. The recipient types the delivery postal code from the label to show they have it, and gets a return label
        back to your address: the same return as <code>POST /packages/&#123;TrackingNumber&#125;/return</code>, one per package,
        with its <code>package.return_created</code> webhook. Nobody who only knows the tracking number sees a label or an
        address. This setting is for the whole account.
      </p>
      <form onSubmit={submit} aria-label="Returns from the tracking page" className="mt-4">
        <fieldset disabled={!canChange} className="space-y-3">
          <legend className="sr-only">Returns from the tracking page</legend>
          <label className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              name="public_returns"
              checked={allowed}
              onChange={(e) => setAllowed(e.target.checked)}
              className="mt-0.5 h-4 w-4 rounded border-slate-400 text-brand-600 focus:ring-brand-500"
            />
            <span>
              <span className="font-medium text-slate-900">Let recipients start a return on the tracking page</span>
              <span className="block text-slate-600">
                Off: the page offers no return; you can still make one through the API.
              </span>
            </span>
          </label>
          <SaveRow
            save={save}
            canChange={canChange}
            what="change settings"
            permission="settings:manage"
            saved={(data) =>
              data.public_returns
                ? 'Saved: the tracking page offers a return once a package is out for delivery.'
                : 'Saved: the tracking page offers no return.'
            }
          />
        </fieldset>
      </form>
    </Card>
  );
}
