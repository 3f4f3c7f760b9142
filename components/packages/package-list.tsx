'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { KeysetPager, useExportHref, useKeysetList } from '@/components/layout/keyset-list';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { statusLabel } from '@/components/lifecycle/status-badge';
import { TypeBadge } from '@/components/manifests/manifest-list';
import { MANIFEST_DAY_RANGE } from '@/components/manifests/header-fields';
import { REGIME_LABELS } from '@/components/manifests/customs-readiness';
import {
  buttonClass,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  LoadingBlock,
  Select,
  NothingMatches,
  useUrlFilters,
  DateTime,
} from '@/components/ui';
import { PACKAGE_STATUSES } from '@/lib/status/transitions';
import { CUSTOMS_REGIMES } from '@/lib/schemas/customs-api';
import { PACKAGE_FILTERS, type TPackage, type TPackageList } from '@/lib/portal/package-list-types';
import type { TPackageCountResponse } from '@/lib/schemas/package-selection';
import { SERVICES } from '@/lib/schemas/rate';
import { PackageBatchBar, type Selection } from './package-batch';
import { PackageTable, POSTAL_CODE_COLUMN, STATUS_COLUMN, text, TRACKING_COLUMN, type PackageColumn } from './package-table';

const PAGE_SIZES = [25, 50, 100] as const;
/** Typing pauses this long before the list follows the search box. */
const SEARCH_DEBOUNCE_MS = 100;

const COLUMNS: PackageColumn[] = [
  TRACKING_COLUMN,
  STATUS_COLUMN,
  { heading: 'Type', cell: (p) => <TypeBadge type={p.manifest_type} /> },
  {
    heading: 'Manifest',
    cell: (p) => (
      <PortalLink
        href={`/manifests/${encodeURIComponent(p.ManifestID)}`}
        className="font-mono text-brand-700 underline-offset-2 hover:underline"
      >
        {p.ManifestID}
      </PortalLink>
    ),
  },
  { heading: 'Service', cell: (p) => text(p.ServiceName) },
  { heading: 'Manifest date', cell: (p) => text(typeof p.ManifestDate === 'string' ? p.ManifestDate.slice(0, 10) : null) },
  POSTAL_CODE_COLUMN,
  { heading: 'Status since', cell: (p) => <DateTime value={p.status_updated_at} /> },
];

const plural = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** Every package of the environment, container and daily, newest first; filters and page in the URL. */
export function PackageListView() {
  const portal = usePortalEnvironment();
  const filters = useUrlFilters(PACKAGE_FILTERS, {
    history: 'push',
    range: { from: 'from', to: 'to', fromLabel: 'Manifest date from' },
  });
  const { form, bind, filtered, applied } = filters;
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const { list, ...pages } = useKeysetList<TPackageList, (typeof PACKAGE_FILTERS)[number]>(filters, {
    key: 'packages',
    path: '/portal-api/packages',
    pageSize,
  });
  const { cursor, firstPage, prefetchFirstPage } = pages;
  const exportHref = useExportHref(filters, '/portal-api/exports/packages');
  const data = list.data;
  const filterKey = filters.query().toString();
  const count = useQuery({
    queryKey: portal.key('package-count', filterKey),
    queryFn: ({ signal }) => portal.fetch<TPackageCountResponse>(`/portal-api/package-count?${filterKey}`, { signal }),
  });
  const total = count.data && !count.isPlaceholderData ? count.data : undefined;

  // The search box follows the URL (Back, links) but is the user's while typing: the list follows it after a pause.
  // When the URL arrives at what the box asked for, the box keeps what was typed since; only a URL the box did not ask
  // for (Back, a link) replaces its text.
  const [search, setSearch] = useState(applied.tracking_number);
  const [syncedWith, setSyncedWith] = useState(applied.tracking_number);
  const [requested, setRequested] = useState<string | null>(null);
  if (syncedWith !== applied.tracking_number) {
    setSyncedWith(applied.tracking_number);
    if (requested !== applied.tracking_number) setSearch(applied.tracking_number);
    setRequested(null);
  }
  useEffect(() => {
    if (search.trim() === applied.tracking_number.trim()) return;
    const timer = setTimeout(() => {
      setRequested(search.trim());
      const next = { ...applied, tracking_number: search };
      prefetchFirstPage(next);
      filters.navigate(next, {}, 'replace');
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-armed by what was typed, not by each render's `filters`
  }, [search, applied.tracking_number]);

  // "/" anywhere but a field goes to the search box, as on GitHub and Gmail.
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      searchBox.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The selection belongs to the filter it was made under: another filter starts with none. Pages keep it.
  const [selection, setSelection] = useState<Selection & { filterKey: string }>({ kind: 'some', ids: new Map(), filterKey });
  const current: Selection = selection.filterKey === filterKey ? selection : { kind: 'some', ids: new Map() };
  const select = (next: Selection) => setSelection({ ...next, filterKey });
  const rows = data?.data ?? [];
  const isSelected = (p: TPackage) => current.kind === 'all' || current.ids.has(p.carrier_barcode);
  const onPage = rows.filter(isSelected).length;
  const selectedCount = current.kind === 'all' ? (total?.count ?? 0) : current.ids.size;

  const toggle = (p: TPackage) => {
    if (current.kind === 'all') return;
    const ids = new Map(current.ids);
    if (ids.has(p.carrier_barcode)) ids.delete(p.carrier_barcode);
    else ids.set(p.carrier_barcode, p.TrackingNumber ?? p.carrier_barcode);
    select({ kind: 'some', ids });
  };
  const togglePage = () => {
    if (current.kind === 'all') return;
    const ids = new Map(current.ids);
    if (onPage === rows.length) for (const p of rows) ids.delete(p.carrier_barcode);
    else for (const p of rows) ids.set(p.carrier_barcode, p.TrackingNumber ?? p.carrier_barcode);
    select({ kind: 'some', ids });
  };

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (filters.errorOf('to')) {
      event.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setRequested(search.trim());
    filters.navigate({ ...form, tracking_number: search });
  };

  const summary = total
    ? `${total.capped ? 'More than ' : ''}${plural(total.count, 'package')}${filtered ? ' match these filters' : ''}`
    : count.isError
      ? 'Could not count the packages'
      : 'Counting packages…';

  return (
    <div className="space-y-4">
      <FilterBar
        label="Filter packages"
        columns={4}
        filtered={filtered}
        onSubmit={submit}
        onClear={() => {
          setSearch('');
          filters.clear();
        }}
        primary={
          <Field label="Tracking number" className="sm:col-span-2" hint="Searches as you type. Press / to come back here.">
            <Input
              ref={searchBox}
              type="search"
              maxLength={64}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Starts with… (any case)"
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
            />
          </Field>
        }
        actions={
          <a href={exportHref} download className={`${buttonClass({ variant: 'secondary' })} sm:ml-auto`}>
            {filtered ? 'Export these packages (CSV)' : 'Export all packages (CSV)'}
          </a>
        }
      >
        <Field label="Status">
          <Select {...bind('status')}>
            <option value="">All statuses</option>
            {PACKAGE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Service">
          <Select {...bind('service')}>
            <option value="">All services</option>
            {[...new Set([...SERVICES, ...(form.service ? [form.service] : [])])].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Manifest ID">
          <Input maxLength={128} {...bind('manifest_id')} placeholder="MAN-…" autoComplete="off" className="font-mono" />
        </Field>
        <Field label="To postal code">
          <Input maxLength={16} {...bind('to_postal_code')} autoComplete="off" />
        </Field>
        <Field label="Customs">
          <Select {...bind('customs_not_ready')}>
            <option value="">Any readiness</option>
            {CUSTOMS_REGIMES.map((r) => (
              <option key={r} value={r}>
                Not ready for {REGIME_LABELS[r]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Manifest date from">
          <Input type="date" {...MANIFEST_DAY_RANGE} {...bind('from')} />
        </Field>
        <Field label="Manifest date to" error={filters.errorOf('to')}>
          <Input type="date" {...MANIFEST_DAY_RANGE} {...bind('to')} />
        </Field>
      </FilterBar>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-800" role="status" aria-live="polite">
          {summary}
        </p>
        <label className="flex items-center gap-2 whitespace-nowrap text-sm text-slate-700">
          Rows per page
          <Select
            className="w-auto"
            value={String(pageSize)}
            onChange={(e) => {
              setPageSize(Number(e.target.value));
              if (cursor) firstPage();
            }}
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </label>
      </div>

      <PackageBatchBar
        selection={current}
        count={selectedCount}
        pageRows={rows.length}
        allOnPage={rows.length > 0 && onPage === rows.length}
        total={total}
        filters={filters.query()}
        onSelectAll={() => select({ kind: 'all' })}
        onClear={() => select({ kind: 'some', ids: new Map() })}
      />

      {list.isPending ? (
        <LoadingBlock label="Loading packages…" rows={5} />
      ) : list.isError ? (
        <ErrorState title="Could not load packages" error={list.error} onRetry={cursor ? firstPage : () => void list.refetch()} />
      ) : data && data.data.length === 0 ? (
        filtered || cursor ? (
          <NothingMatches noun="packages" paged={!!cursor} onFirstPage={firstPage} onClear={filters.clear} />
        ) : (
          <EmptyState title="No packages yet">
            Packages of the container manifests you create and the package requests you send appear here, newest first.
          </EmptyState>
        )
      ) : data ? (
        <PackageTable
          label="Packages"
          busy={list.isFetching}
          rows={rows}
          columns={COLUMNS}
          selection={{
            isSelected,
            toggle,
            page: onPage === 0 ? false : onPage === rows.length ? true : 'mixed',
            togglePage,
            locked: current.kind === 'all',
          }}
          footer={
            <KeysetPager
              summary={`${plural(rows.length, 'package')} on this page${total ? ` of ${total.capped ? 'more than ' : ''}${total.count.toLocaleString('en-US')}` : ''} · newest first`}
              page={data}
              pages={pages}
            />
          }
        />
      ) : null}
    </div>
  );
}
