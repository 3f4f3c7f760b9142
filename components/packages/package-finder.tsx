'use client';
import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardTitle, EmptyState, ErrorState, Input, LoadingBlock } from '@/components/ui';
import { TypeBadge } from '@/components/manifests/manifest-list';
import { formatDateTime } from '@/lib/portal/format';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import type { FoundPackage } from '@/lib/portal-queries/types';

/** Finds a package by its exact tracking number; the number is kept in the URL (?tracking=). */
export function PackageFinder() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const tracking = params.get('tracking')?.trim() ?? '';
  const [input, setInput] = useState(tracking);
  const portal = usePortalEnvironment();

  const result = useQuery({
    queryKey: portal.key('package', tracking),
    queryFn: ({ signal }) =>
      portal.fetch<{ items: FoundPackage[] }>(`/portal-api/packages?tracking=${encodeURIComponent(tracking)}`, { signal }),
    enabled: tracking !== '',
  });

  function search(event: FormEvent) {
    event.preventDefault();
    const value = input.trim();
    router.replace(value ? `${pathname}?tracking=${encodeURIComponent(value)}` : pathname, { scroll: false });
  }

  return (
    <div className="space-y-4">
      <form
        onSubmit={search}
        role="search"
        aria-label="Find a package"
        className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="tracking" className="block text-sm font-medium text-slate-800">
            Tracking number
          </label>
          <Input
            id="tracking"
            value={input}
            onChange={(e) => setInput(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        </div>
        <Button type="submit" disabled={!input.trim()}>
          Find package
        </Button>
      </form>

      {tracking === '' ? (
        <EmptyState title="Enter a tracking number">
          Searches container manifests and daily package manifests in the selected environment.
        </EmptyState>
      ) : result.isPending ? (
        <LoadingBlock label="Searching…" rows={4} />
      ) : result.isError ? (
        <ErrorState title="Could not search" error={result.error} onRetry={() => void result.refetch()} />
      ) : result.data.items.length === 0 ? (
        <EmptyState title={`No package ${tracking}`}>
          Nothing with this tracking number in this environment. Tracking numbers match exactly; test and live are kept apart.
        </EmptyState>
      ) : (
        <div className="space-y-4">
          {result.data.items.map((p) => (
            <Card key={`${p.kind}-${p.manifestId}`} role="region" aria-label={`Package ${p.trackingNumber}`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <CardTitle>
                  <span className="font-mono">{p.trackingNumber}</span>
                </CardTitle>
                <TypeBadge type={p.kind} />
              </div>
              <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
                <div>
                  <dt className="text-slate-600">Manifest</dt>
                  <dd>
                    <PortalLink href={`/manifests/${encodeURIComponent(p.manifestId)}`} className="font-mono font-medium text-brand-700 underline">
                      {p.manifestId}
                    </PortalLink>
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-600">Manifest date</dt>
                  <dd className="font-medium text-slate-900">{p.manifestDate}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">{p.kind === 'container' ? 'Container' : 'Service'}</dt>
                  <dd className="font-medium text-slate-900">
                    {p.kind === 'container' ? `${p.containerId} · ${p.service}` : p.service}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-600">Received</dt>
                  <dd className="font-medium text-slate-900">{formatDateTime(p.createdAt)}</dd>
                </div>
              </dl>
              <h3 className="mt-5 text-sm font-semibold text-slate-900">Package details</h3>
              <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
                {Object.entries(p.detail)
                  .filter(([, v]) => v !== null && v !== undefined && v !== '')
                  .map(([k, v]) => (
                    <div key={k} className="min-w-0">
                      <dt className="text-slate-600">{k}</dt>
                      <dd className="break-words font-medium text-slate-900">
                        {typeof v === 'string' ? v : JSON.stringify(v)}
                      </dd>
                    </div>
                  ))}
              </dl>
            </Card>
          ))}
        </div>
      )}
    </div>
  );
}
