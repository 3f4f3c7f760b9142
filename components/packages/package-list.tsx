'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { StatusBadge, statusLabel } from '@/components/lifecycle/status-badge';
import { TypeBadge } from '@/components/manifests/manifest-list';
import { MANIFEST_DAY_RANGE } from '@/components/manifests/header-fields';
import { Button, EmptyState, ErrorState, Input, LoadingBlock, Select, Td, Th, Tr } from '@/components/ui';
import { PACKAGE_STATUSES } from '@/lib/lifecycle/transitions';
import { formatDateTime } from '@/lib/portal/format';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import { PACKAGE_FILTERS, type PackageFilter, type TPackageList } from '@/lib/portal-lifecycle/types';
import { SERVICES } from '@/lib/schemas/rate';

const PAGE_SIZE = 25;
/** Cursors of the pages before this one, in the URL (`back`), so Previous, reload and Back all work; the newest 20. */
const TRAIL_MAX = 20;
/** The first page in the trail (it has no cursor); never a cursor, which is longer. */
const FIRST = '0';
type Filters = Record<PackageFilter, string>;

function filtersOf(params: URLSearchParams): Filters {
  return Object.fromEntries(PACKAGE_FILTERS.map((f) => [f, params.get(f) ?? ''])) as Filters;
}

function filterQuery(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  for (const f of PACKAGE_FILTERS) if (filters[f].trim()) query.set(f, filters[f].trim());
  return query;
}

/** Every package of the environment, container and daily, newest first; filters and page in the URL. */
export function PackageListView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const portal = usePortalEnvironment();
  const applied = filtersOf(params);
  const cursor = params.get('cursor') ?? '';
  const trail = (params.get('back') ?? '').split('.').filter(Boolean);
  const [form, setForm] = useState<Filters>(applied);
  // Back, Forward and links change the URL's filters under the form: the form follows (React's "adjust state on a prop change").
  const appliedKey = filterQuery(applied).toString();
  const [shown, setShown] = useState(appliedKey);
  if (shown !== appliedKey) {
    setShown(appliedKey);
    setForm(applied);
  }

  const query = filterQuery(applied);
  query.set('limit', String(PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  const list = useQuery({
    queryKey: portal.key('packages', query.toString()),
    queryFn: ({ signal }) => portal.fetch<TPackageList>(`/portal-api/packages?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });

  function go(filters: Filters, page: { cursor?: string; back?: string[] } = {}) {
    const next = filterQuery(filters);
    if (page.cursor) next.set('cursor', page.cursor);
    if (page.back?.length) next.set('back', page.back.join('.'));
    router.push(`${pathname}${next.size ? `?${next}` : ''}`, { scroll: false });
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    go(form);
  }

  function clear() {
    const empty = Object.fromEntries(PACKAGE_FILTERS.map((f) => [f, ''])) as Filters;
    setForm(empty);
    go(empty);
  }

  function nextPage(nextCursor: string) {
    go(applied, { cursor: nextCursor, back: [...trail, cursor || FIRST].slice(-TRAIL_MAX) });
  }

  function previousPage() {
    const before = trail[trail.length - 1];
    go(applied, { cursor: before === FIRST ? undefined : before, back: trail.slice(0, -1) });
  }

  const set = (key: PackageFilter) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const filtered = PACKAGE_FILTERS.some((f) => applied[f]);
  const exportQuery = filterQuery(applied);
  // A download link cannot send a header: the environment goes in the query (GET only).
  exportQuery.set(ENVIRONMENT_QUERY, portal.environment);
  const data = list.data;

  return (
    <div className="space-y-4">
      <form
        onSubmit={apply}
        role="search"
        aria-label="Filter packages"
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4"
      >
        <div className="sm:col-span-2">
          <label htmlFor="package-tracking" className="block text-sm font-medium text-slate-800">
            Tracking number
          </label>
          <Input
            id="package-tracking"
            type="search"
            maxLength={64}
            value={form.tracking_number}
            onChange={set('tracking_number')}
            placeholder="Starts with… (any case)"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        </div>
        <div>
          <label htmlFor="package-status" className="block text-sm font-medium text-slate-800">
            Status
          </label>
          <Select id="package-status" value={form.status} onChange={set('status')}>
            <option value="">All statuses</option>
            {PACKAGE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor="package-service" className="block text-sm font-medium text-slate-800">
            Service
          </label>
          <Select id="package-service" value={form.service} onChange={set('service')}>
            <option value="">All services</option>
            {[...new Set([...SERVICES, ...(form.service ? [form.service] : [])])].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor="package-manifest" className="block text-sm font-medium text-slate-800">
            Manifest ID
          </label>
          <Input
            id="package-manifest"
            maxLength={128}
            value={form.manifest_id}
            onChange={set('manifest_id')}
            placeholder="MAN-…"
            autoComplete="off"
            className="font-mono"
          />
        </div>
        <div>
          <label htmlFor="package-postal" className="block text-sm font-medium text-slate-800">
            To postal code
          </label>
          <Input
            id="package-postal"
            maxLength={16}
            value={form.to_postal_code}
            onChange={set('to_postal_code')}
            autoComplete="off"
          />
        </div>
        <div>
          <label htmlFor="package-from" className="block text-sm font-medium text-slate-800">
            Manifest date from
          </label>
          <Input id="package-from" type="date" {...MANIFEST_DAY_RANGE} value={form.from} onChange={set('from')} />
        </div>
        <div>
          <label htmlFor="package-to" className="block text-sm font-medium text-slate-800">
            Manifest date to
          </label>
          <Input id="package-to" type="date" {...MANIFEST_DAY_RANGE} value={form.to} onChange={set('to')} />
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit">Apply</Button>
          {filtered ? (
            <Button variant="secondary" onClick={clear}>
              Clear filters
            </Button>
          ) : null}
          <a
            href={`/portal-api/exports/packages?${exportQuery}`}
            download
            className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 sm:ml-auto"
          >
            {filtered ? 'Export these packages (CSV)' : 'Export all packages (CSV)'}
          </a>
        </div>
      </form>

      {list.isPending ? (
        <LoadingBlock label="Loading packages…" rows={5} />
      ) : list.isError ? (
        <ErrorState
          title="Could not load packages"
          error={list.error}
          onRetry={cursor ? () => go(applied) : () => list.refetch()}
        />
      ) : data && data.data.length === 0 ? (
        filtered || cursor ? (
          <EmptyState
            title={cursor ? 'No more packages' : 'No packages match these filters'}
            action={
              <Button variant="secondary" onClick={cursor ? () => go(applied) : clear}>
                {cursor ? 'Back to the first page' : 'Clear filters'}
              </Button>
            }
          />
        ) : (
          <EmptyState title="No packages yet">
            Packages of the container manifests you create and the package requests you send appear here, newest first.
          </EmptyState>
        )
      ) : data ? (
        <div className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={list.isFetching}>
          <div
            role="region"
            aria-label="Packages"
            tabIndex={0}
            className="overflow-x-auto rounded-t-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50">
                <tr>
                  <Th>Tracking number</Th>
                  <Th>Status</Th>
                  <Th>Type</Th>
                  <Th>Manifest</Th>
                  <Th>Service</Th>
                  <Th>Manifest date</Th>
                  <Th>To postal code</Th>
                  <Th>Status since</Th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((p) => (
                  <Tr key={`${p.manifest_type}-${p.ManifestID}-${p.TrackingNumber ?? ''}`}>
                    <Td>
                      {p.TrackingNumber ? (
                        <PortalLink
                          href={`/packages/${encodeURIComponent(p.TrackingNumber)}`}
                          className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline"
                        >
                          {p.TrackingNumber}
                        </PortalLink>
                      ) : (
                        <span className="text-slate-500">—</span>
                      )}
                    </Td>
                    <Td>
                      <StatusBadge status={p.status} />
                    </Td>
                    <Td>
                      <TypeBadge type={p.manifest_type} />
                    </Td>
                    <Td>
                      <PortalLink
                        href={`/manifests/${encodeURIComponent(p.ManifestID)}`}
                        className="font-mono text-brand-700 underline-offset-2 hover:underline"
                      >
                        {p.ManifestID}
                      </PortalLink>
                    </Td>
                    <Td>{text(p.ServiceName)}</Td>
                    <Td>{text(typeof p.ManifestDate === 'string' ? p.ManifestDate.slice(0, 10) : null)}</Td>
                    <Td>{text(p.ToPostalCode)}</Td>
                    <Td>{formatDateTime(p.status_updated_at)}</Td>
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
              {data.data.length} package{data.data.length === 1 ? '' : 's'} on this page · newest first
            </p>
            <div className="flex flex-wrap gap-2">
              {cursor ? (
                <Button size="sm" variant="ghost" onClick={() => go(applied)}>
                  First page
                </Button>
              ) : null}
              <Button size="sm" variant="secondary" disabled={trail.length === 0} onClick={previousPage}>
                Previous
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={!data.has_more || !data.next_cursor}
                onClick={() => data.next_cursor && nextPage(data.next_cursor)}
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

function text(value: unknown) {
  return typeof value === 'string' && value !== '' ? value : <span className="text-slate-500">—</span>;
}
