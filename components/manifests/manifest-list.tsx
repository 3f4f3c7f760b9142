'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { StatusBadge } from '@/components/lifecycle/status-badge';
import {
  Badge,
  Button,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  ListTable,
  LoadingBlock,
  NoValue,
  Pager,
  Select,
  Td,
  Th,
  Tr,
  useUrlFilters,
} from '@/components/ui';
import { formatDateTime } from '@/lib/portal/format';
import type { TPortalManifestList } from '@/lib/schemas/portal-responses';
import { MANIFEST_DAY_RANGE } from './header-fields';

const PAGE_SIZE = 25;
const FILTERS = ['q', 'type', 'service', 'from', 'to'] as const;

export function TypeBadge({ type }: { type: 'container' | 'daily' }) {
  return type === 'container' ? <Badge tone="info">Container</Badge> : <Badge tone="neutral">Daily packages</Badge>;
}

/** The list's filters live in the URL, so a filtered list can be bookmarked and Back works. */
export function ManifestListView() {
  const portal = usePortalEnvironment();
  const filters = useUrlFilters(FILTERS, { history: 'replace', range: { from: 'from', to: 'to', fromLabel: 'From' } });
  const { applied, bind, filtered } = filters;
  // Keyset paging: `after`/`before` are the API's cursors; `at` is only where the page starts, for the
  // "26–50 of N" line.
  const after = filters.params.get('after') ?? '';
  const before = after ? '' : (filters.params.get('before') ?? '');
  const offset = after || before ? Math.max(0, Number(filters.params.get('at') ?? 0) || 0) : 0;

  const query = filters.query();
  if (after) query.set('after', after);
  if (before) query.set('before', before);
  query.set('limit', String(PAGE_SIZE));
  const list = useQuery({
    queryKey: portal.key('manifests', query.toString()),
    queryFn: ({ signal }) => portal.fetch<TPortalManifestList>(`/portal-api/manifests?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });

  /** A page other than the first: its cursor, and where it starts. */
  function goTo(cursor: { after?: string | null; before?: string | null }, at: number) {
    const page = cursor.after ? { after: cursor.after } : cursor.before ? { before: cursor.before } : undefined;
    filters.navigate(applied, at > 0 && page ? { ...page, at: String(at) } : {});
  }

  const data = list.data;

  return (
    <div className="space-y-4">
      <FilterBar label="Filter manifests" columns={6} filtered={filtered} onSubmit={filters.apply} onClear={filters.clear}>
        <Field label="Search" className="sm:col-span-2">
          <Input type="search" maxLength={100} {...bind('q')} placeholder="ManifestID, ContainerID or tracking number" />
        </Field>
        <Field label="From">
          <Input type="date" {...MANIFEST_DAY_RANGE} {...bind('from')} />
        </Field>
        <Field label="To" error={filters.errorOf('to')}>
          <Input type="date" {...MANIFEST_DAY_RANGE} {...bind('to')} />
        </Field>
        <Field label="Service">
          <Select {...bind('service')}>
            <option value="">All services</option>
            {(data?.services ?? (filters.form.service ? [filters.form.service] : [])).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Type">
          <Select {...bind('type')}>
            <option value="">All types</option>
            <option value="container">Container</option>
            <option value="daily">Daily packages</option>
          </Select>
        </Field>
      </FilterBar>

      {list.isPending ? (
        <LoadingBlock label="Loading manifests…" rows={5} />
      ) : list.isError ? (
        <ErrorState title="Could not load manifests" error={list.error} onRetry={() => void list.refetch()} />
      ) : data && data.items.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No manifests match these filters"
            action={
              <Button variant="secondary" onClick={filters.clear}>
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
        <ListTable
          label="Manifests"
          busy={list.isFetching}
          head={
            <>
              <Th>Type</Th>
              <Th>Manifest ID</Th>
              <Th>Container ID</Th>
              <Th>Date</Th>
              <Th>Service</Th>
              <Th className="text-right">Packages</Th>
              <Th>Status</Th>
              <Th>Created</Th>
            </>
          }
          footer={
            <Pager
              summary={`${data.total === 0 ? 0 : offset + 1}–${Math.min(offset + data.items.length, data.total)} of ${data.total.toLocaleString()}`}
              hasPrevious={!!data.prevCursor}
              onPrevious={() => goTo({ before: data.prevCursor }, Math.max(0, offset - PAGE_SIZE))}
              hasNext={!!data.nextCursor}
              onNext={() => goTo({ after: data.nextCursor }, offset + PAGE_SIZE)}
            />
          }
        >
          {data.items.map((m) => (
            <Tr key={m.id}>
              <Td data-label="Type">
                <TypeBadge type={m.type} />
              </Td>
              <Td data-label="Manifest ID">
                <PortalLink href={`/manifests/${m.id}`} className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline">
                  {m.id}
                </PortalLink>
              </Td>
              <Td data-label="Container ID">{m.containerId ?? <NoValue />}</Td>
              <Td data-label="Date">{m.manifestDate}</Td>
              <Td data-label="Service">{m.service ?? <NoValue />}</Td>
              <Td data-label="Packages" className="text-right tabular-nums">{m.packageCount.toLocaleString()}</Td>
              <Td data-label="Status">
                <StatusBadge status={m.status} />
              </Td>
              <Td data-label="Created">{formatDateTime(m.createdAt)}</Td>
            </Tr>
          ))}
        </ListTable>
      ) : null}
    </div>
  );
}
