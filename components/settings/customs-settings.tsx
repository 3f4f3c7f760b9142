'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { Card, CardTitle, ErrorState, LoadingBlock } from '@/components/ui';
import { SaveRow } from './save-row';
import type { TCustomsSettings } from '@/lib/schemas/customs-api';

/** Hold a live container at departure until its customs readiness holds. */
export function CustomsSettingsForm() {
  const portal = usePortalEnvironment();
  const key = portal.key('settings', 'customs');
  const current = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => portal.fetch<TCustomsSettings>('/portal-api/settings/customs', { signal }),
  });
  if (current.isPending) return <LoadingBlock label="Loading the customs setting…" rows={2} />;
  if (current.isError)
    return <ErrorState title="Could not load the customs setting" error={current.error} onRetry={() => void current.refetch()} />;
  return <Form initial={current.data} queryKey={key} />;
}

function Form({ initial, queryKey }: { initial: TCustomsSettings; queryKey: readonly unknown[] }) {
  const portal = usePortalEnvironment();
  const client = useQueryClient();
  const canChange = useCan('settings:manage');
  const [enforce, setEnforce] = useState(initial.enforce_readiness);
  const save = useMutation({
    mutationFn: (body: TCustomsSettings) =>
      portal.fetch<TCustomsSettings>('/portal-api/settings/customs', { method: 'PUT', body }),
    onSuccess: (data) => client.setQueryData(queryKey, data),
  });
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
