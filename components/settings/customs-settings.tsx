'use client';
import { useState, type FormEvent } from 'react';
import { useCan } from '@/components/layout/portal-context';
import { Card, CardTitle } from '@/components/ui';
import { SaveRow } from './save-row';
import { SettingLoader, useSaveSetting, type SettingSource } from './setting-loader';
import type { TCustomsSettings } from '@/lib/schemas/customs-api';

/** Hold a live container at departure until its customs readiness holds. */
export function CustomsSettingsForm() {
  return (
    <SettingLoader<TCustomsSettings> name="customs" what="the customs setting">
      {(initial, source) => <Form initial={initial} source={source} />}
    </SettingLoader>
  );
}

function Form({ initial, source }: { initial: TCustomsSettings; source: SettingSource }) {
  const canChange = useCan('settings:manage');
  const [enforce, setEnforce] = useState(initial.enforce_readiness);
  const save = useSaveSetting<TCustomsSettings, TCustomsSettings>(source);
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ enforce_readiness: enforce });
  }
  return (
    <Card>
      <CardTitle>Customs before departure</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        Each manifest shows its readiness for the destination&apos;s customs filings (EU ICS2, US ACAS, Canada eManifest). With
        this on, a live container whose readiness does not hold for a regime that applies is not loaded: its departure scan is
        refused, naming the regimes. The test environment never holds a container. This setting is for the whole account.
      </p>
      <form onSubmit={submit} aria-label="Customs before departure" className="mt-4">
        <fieldset disabled={!canChange} className="space-y-3">
          <label className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              checked={enforce}
              onChange={(e) => setEnforce(e.target.checked)}
              className="mt-0.5 h-4 w-4 rounded border-slate-400 text-brand-600 focus:ring-brand-500"
            />
            <span>
              <span className="font-medium text-slate-900">Hold a live container until its customs data is ready</span>
              <span className="block text-slate-600">Recommended once your manifests carry full customs data.</span>
            </span>
          </label>
          <SaveRow
            save={save}
            canChange={canChange}
            what="change settings"
            permission="settings:manage"
            saved={(data) =>
              `Saved: ${data.enforce_readiness ? 'live containers depart only when ready' : 'readiness is shown, never enforced'}.`
            }
          />
        </fieldset>
      </form>
    </Card>
  );
}
