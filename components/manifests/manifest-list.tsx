'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { Badge, Button, EmptyState, ErrorState, Input, LoadingBlock, Select, Td, Th, Tr } from '@/components/ui';
import { formatDateTime } from '@/lib/portal/format';
import type { ManifestList } from '@/lib/portal-queries/types';
import { MANIFEST_DAY_RANGE } from './header-fields';

const PAGE_SIZE = 25;
const FILTERS = ['q', 'type', 'service', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

export function TypeBadge({ type }: { type: 'container' | 'daily' }) {
  return type === 'container' ? <Badge tone="info">Container</Badge> : <Badge tone="neutral">Daily packages</Badge>;
}

/** The list's filters live in the URL, so a filtered list can be bookmarked and Back works. */
export function ManifestListView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const portal = usePortalEnvironment();
  const applied = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Filters;
  // Keyset paging: `after`/`before` are the API's cursors; `at` is only where the page starts, for the
  // "26–50 of N" line.
  const after = params.get('after') ?? '';
  const before = after ? '' : (params.get('before') ?? '');
  const offset = after || before ? Math.max(0, Number(params.get('at') ?? 0) || 0) : 0;
  const [form, setForm] = useState<Filters>(applied);

  const query = new URLSearchParams();
  for (const f of FILTERS) if (applied[f]) query.set(f, applied[f]);
  if (after) query.set('after', after);
  if (before) query.set('before', before);
  query.set('limit', String(PAGE_SIZE));
  const list = useQuery({
    queryKey: portal.key('manifests', query.toString()),
    queryFn: ({ signal }) => portal.fetch<ManifestList>(`/portal-api/manifests?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });

  function navigate(filters: Filters, page?: { after?: string; before?: string; at: number }) {
    const next = new URLSearchParams();
    for (const f of FILTERS) if (filters[f].trim()) next.set(f, filters[f].trim());
    if (page && page.at > 0 && (page.after || page.before)) {
      if (page.after) next.set('after', page.after);
      else if (page.before) next.set('before', page.before);
      next.set('at', String(page.at));
    }
    router.replace(`${pathname}${next.size ? `?${next}` : ''}`, { scroll: false });
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    navigate(form);
  }

  function clear() {
    const empty = Object.fromEntries(FILTERS.map((f) => [f, ''])) as Filters;
    setForm(empty);
    navigate(empty);
  }

  const set = (key: keyof Filters) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const filtered = FILTERS.some((f) => applied[f]);
  const data = list.data;

  return (
    <div className="space-y-4">
      <form
        onSubmit={apply}
        role="search"
        aria-label="Filter manifests"
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6"
      >
        <div className="sm:col-span-2">
          <label htmlFor="manifest-q" className="block text-sm font-medium text-slate-800">
            Search
          </label>
          <Input
            id="manifest-q"
            type="search"
            maxLength={100}
            value={form.q}
            onChange={set('q')}
            placeholder="ManifestID, ContainerID or tracking number"
          />
        </div>
        <div>
          <label htmlFor="manifest-from" className="block text-sm font-medium text-slate-800">
            From
          </label>
          <Input id="manifest-from" type="date" {...MANIFEST_DAY_RANGE} value={form.from} onChange={set('from')} />
        </div>
        <div>
          <label htmlFor="manifest-to" className="block text-sm font-medium text-slate-800">
            To
          </label>
          <Input id="manifest-to" type="date" {...MANIFEST_DAY_RANGE} value={form.to} onChange={set('to')} />
        </div>
        <div>
          <label htmlFor="manifest-service" className="block text-sm font-medium text-slate-800">
            Service
          </label>
          <Select id="manifest-service" value={form.service} onChange={set('service')}>
            <option value="">All services</option>
            {(data?.services ?? (form.service ? [form.service] : [])).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor="manifest-type" className="block text-sm font-medium text-slate-800">
            Type
          </label>
          <Select id="manifest-type" value={form.type} onChange={set('type')}>
            <option value="">All types</option>
            <option value="container">Container</option>
            <option value="daily">Daily packages</option>
          </Select>
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-6">
          <Button type="submit">Apply</Button>
          {filtered ? (
            <Button variant="secondary" onClick={clear}>
              Clear filters
            </Button>
          ) : null}
        </div>
      </form>

      {list.isPending ? (
        <LoadingBlock label="Loading manifests…" rows={5} />
      ) : list.isError ? (
        <ErrorState title="Could not load manifests" error={list.error} onRetry={() => void list.refetch()} />
      ) : data && data.items.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No manifests match these filters"
            action={
              <Button variant="secondary" onClick={clear}>
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            title="No manifests yet"
            action={
              <PortalLink href="/manifests/new" className="font-medium text-brand-700 underline">
                Build a container manifest
              </PortalLink>
            }
          >
            Container manifests you create here or through the API, and the daily manifests your package requests join, appear
            here.
          </EmptyState>
        )
      ) : data ? (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={list.isFetching}>
          <div
            role="region"
            aria-label="Manifests"
            tabIndex={0}
            className="overflow-x-auto rounded-t-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <Th>Type</Th>
                  <Th>Manifest ID</Th>
                  <Th>Container ID</Th>
                  <Th>Date</Th>
                  <Th>Service</Th>
                  <Th className="text-right">Packages</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((m) => (
                  <Tr key={m.id}>
                    <Td>
                      <TypeBadge type={m.type} />
                    </Td>
                    <Td>
                      <PortalLink
                        href={`/manifests/${m.id}`}
                        className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline"
                      >
                        {m.id}
                      </PortalLink>
                    </Td>
                    <Td>{m.containerId ?? <span className="text-slate-500">—</span>}</Td>
                    <Td>{m.manifestDate}</Td>
                    <Td>{m.service ?? <span className="text-slate-500">—</span>}</Td>
                    <Td className="text-right tabular-nums">{m.packageCount.toLocaleString()}</Td>
                    <Td>{formatDateTime(m.createdAt)}</Td>
                  </Tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav
            aria-label="Pages"
            className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm"
          >
            <p className="text-slate-700">
              {data.total === 0 ? 0 : offset + 1}–{Math.min(offset + data.items.length, data.total)} of{' '}
              {data.total.toLocaleString()}
            </p>
            <div className="flex gap-2">
              <Button
                size="sm"
                variant="secondary"
                disabled={!data.prevCursor}
                onClick={() => navigate(applied, { before: data.prevCursor ?? undefined, at: Math.max(0, offset - PAGE_SIZE) })}
              >
                Previous
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={!data.nextCursor}
                onClick={() => navigate(applied, { after: data.nextCursor ?? undefined, at: offset + PAGE_SIZE })}
              >
                Next
              </Button>
            </div>
          </nav>
        </div>
      ) : null}
    </div>
  );
}
