'use client';
import { KeysetPager, useKeysetList } from '@/components/layout/keyset-list';
import { Can } from '@/components/layout/role';
import { useQuery } from '@tanstack/react-query';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { StatusBadge, statusLabel } from '@/components/lifecycle/status-badge';
import { CONTAINER_STATUSES } from '@/lib/schemas/statuses';
import {
  Badge,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  ListTable,
  LoadingBlock,
  NoValue,
  NothingMatches,
  Select,
  Td,
  Th,
  Tr,
  useUrlFilters,
  DateTime,
} from '@/components/ui';
import { MANIFEST_FILTERS, type TManifest, type TManifestList, type TManifestServices } from '@/lib/portal/package-list-types';
import { MANIFEST_DAY_RANGE } from './header-fields';

const PAGE_SIZE = 25;

export function TypeBadge({ type }: { type: 'container' | 'daily' }) {
  return type === 'container' ? <Badge tone="info">Container</Badge> : <Badge tone="neutral">Daily packages</Badge>;
}

/** A manifest's day as the list and the page show it: a container's ManifestDate is an instant, a daily one's a day. */
export function manifestDay(manifest: Pick<TManifest, 'ManifestDate'>): string | null {
  return manifest.ManifestDate ? manifest.ManifestDate.slice(0, 10) : null;
}

/**
 * Every manifest of the environment, container and daily, newest first: GET /manifests's answer (the API's shape),
 * its filters and keyset page in the URL, so a filtered list can be bookmarked and Back works.
 */
export function ManifestListView() {
  const portal = usePortalEnvironment();
  const filters = useUrlFilters(MANIFEST_FILTERS, { history: 'replace', range: { from: 'from', to: 'to', fromLabel: 'From' } });
  const { bind, filtered } = filters;
  const { list, ...pages } = useKeysetList<TManifestList, (typeof MANIFEST_FILTERS)[number]>(filters, {
    key: 'manifests',
    path: '/portal-api/manifests',
    pageSize: PAGE_SIZE,
  });
  const { cursor, firstPage } = pages;
  // The service filter's options: the services the account's manifests have (and the one applied, whatever it is).
  const services = useQuery({
    queryKey: portal.key('manifests', 'services'),
    queryFn: ({ signal }) => portal.fetch<TManifestServices>('/portal-api/manifests/services', { signal }),
  });
  const serviceOptions = [
    ...new Set([...(services.data?.services ?? []), ...(filters.form.service ? [filters.form.service] : [])]),
  ];

  const data = list.data;

  return (
    <div className="space-y-4">
      <FilterBar label="Filter manifests" columns={6} filtered={filtered} onSubmit={filters.apply} onClear={filters.clear}>
        <Field label="Search" className="sm:col-span-2">
          <Input
            type="search"
            maxLength={128}
            {...bind('q')}
            placeholder="Start of a ManifestID or ContainerID, or a tracking number"
            autoComplete="off"
            spellCheck={false}
          />
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
            {serviceOptions.map((s) => (
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
        <Field label="Status">
          <Select {...bind('status')}>
            <option value="">All statuses</option>
            {CONTAINER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </Select>
        </Field>
      </FilterBar>

      {list.isPending ? (
        <LoadingBlock label="Loading manifests…" rows={5} />
      ) : list.isError ? (
        <ErrorState
          title="Could not load manifests"
          error={list.error}
          onRetry={cursor ? firstPage : () => void list.refetch()}
        />
      ) : data && data.data.length === 0 ? (
        filtered || cursor ? (
          <NothingMatches noun="manifests" paged={!!cursor} onFirstPage={firstPage} onClear={filters.clear} />
        ) : (
          <EmptyState
            title="No manifests yet"
            action={
              <Can permission="shipments:write">
                <PortalLink href="/manifests/new" className="font-medium text-brand-700 underline">
                  Build a container manifest
                </PortalLink>
              </Can>
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
            <KeysetPager
              summary={`${data.data.length} manifest${data.data.length === 1 ? '' : 's'} on this page · newest first`}
              page={data}
              pages={pages}
            />
          }
        >
          {data.data.map((m) => (
            <Tr key={m.ManifestID}>
              <Td data-label="Type">
                <TypeBadge type={m.type} />
              </Td>
              <Td data-label="Manifest ID">
                <PortalLink
                  href={`/manifests/${encodeURIComponent(m.ManifestID)}`}
                  className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  {m.ManifestID}
                </PortalLink>
              </Td>
              <Td data-label="Container ID">{m.ContainerID ?? <NoValue />}</Td>
              <Td data-label="Date">{manifestDay(m) ?? <NoValue />}</Td>
              <Td data-label="Service">{m.services.length > 0 ? m.services.join(', ') : <NoValue />}</Td>
              <Td data-label="Packages" className="text-right tabular-nums">
                {m.PackageCount.toLocaleString()}
              </Td>
              <Td data-label="Status">
                <StatusBadge status={m.status} />
              </Td>
              <Td data-label="Created">
                <DateTime value={m.created_at} />
              </Td>
            </Tr>
          ))}
        </ListTable>
      ) : null}
    </div>
  );
}
