'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { StatusBadge, statusLabel } from '@/components/lifecycle/status-badge';
import { TypeBadge } from '@/components/manifests/manifest-list';
import { MANIFEST_DAY_RANGE } from '@/components/manifests/header-fields';
import {
  Button,
  buttonClass,
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
  NothingMatches,
  useKeysetPages,
  useUrlFilters,
} from '@/components/ui';
import { PACKAGE_STATUSES } from '@/lib/lifecycle/transitions';
import { formatDateTime } from '@/lib/portal/format';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import { PACKAGE_FILTERS, type TPackageList } from '@/lib/portal-lifecycle/types';
import { SERVICES } from '@/lib/schemas/rate';

const PAGE_SIZE = 25;

/** Every package of the environment, container and daily, newest first; filters and page in the URL. */
export function PackageListView() {
  const portal = usePortalEnvironment();
  const filters = useUrlFilters(PACKAGE_FILTERS, { history: 'push', range: { from: 'from', to: 'to', fromLabel: 'Manifest date from' } });
  const { form, bind, filtered } = filters;
  const { cursor, firstPage, nextPage, previousPage, hasPrevious } = useKeysetPages(filters);

  const query = filters.query();
  query.set('limit', String(PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  const list = useQuery({
    queryKey: portal.key('packages', query.toString()),
    queryFn: ({ signal }) => portal.fetch<TPackageList>(`/portal-api/packages?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });


  const exportQuery = filters.query();
  // A download link cannot send a header: the environment goes in the query (GET only).
  exportQuery.set(ENVIRONMENT_QUERY, portal.environment);
  const data = list.data;

  return (
    <div className="space-y-4">
      <FilterBar
        label="Filter packages"
        columns={4}
        filtered={filtered}
        onSubmit={filters.apply}
        onClear={filters.clear}
        actions={
          <a href={`/portal-api/exports/packages?${exportQuery}`} download className={`${buttonClass({ variant: 'secondary' })} sm:ml-auto`}>
            {filtered ? 'Export these packages (CSV)' : 'Export all packages (CSV)'}
          </a>
        }
      >
        <Field label="Tracking number" className="sm:col-span-2">
          <Input
            type="search"
            maxLength={64}
            {...bind('tracking_number')}
            placeholder="Starts with… (any case)"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        </Field>
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
        <Field label="Manifest date from">
          <Input type="date" {...MANIFEST_DAY_RANGE} {...bind('from')} />
        </Field>
        <Field label="Manifest date to" error={filters.errorOf('to')}>
          <Input type="date" {...MANIFEST_DAY_RANGE} {...bind('to')} />
        </Field>
      </FilterBar>

      {list.isPending ? (
        <LoadingBlock label="Loading packages…" rows={5} />
      ) : list.isError ? (
        <ErrorState title="Could not load packages" error={list.error} onRetry={cursor ? firstPage : () => void list.refetch()} />
      ) : data && data.data.length === 0 ? (
        filtered || cursor ? (
          <NothingMatches noun='packages' paged={!!cursor} onFirstPage={firstPage} onClear={filters.clear} />
        ) : (
          <EmptyState title="No packages yet">
            Packages of the container manifests you create and the package requests you send appear here, newest first.
          </EmptyState>
        )
      ) : data ? (
        <ListTable
          label="Packages"
          busy={list.isFetching}
          head={
            <>
              <Th>Tracking number</Th>
              <Th>Status</Th>
              <Th>Type</Th>
              <Th>Manifest</Th>
              <Th>Service</Th>
              <Th>Manifest date</Th>
              <Th>To postal code</Th>
              <Th>Status since</Th>
            </>
          }
          footer={
            <Pager
              summary={`${data.data.length} package${data.data.length === 1 ? '' : 's'} on this page · newest first`}
              extra={
                cursor ? (
                  <Button size="sm" variant="ghost" onClick={firstPage}>
                    First page
                  </Button>
                ) : null
              }
              hasPrevious={hasPrevious}
              onPrevious={previousPage}
              hasNext={data.has_more && !!data.next_cursor}
              onNext={() => data.next_cursor && nextPage(data.next_cursor)}
            />
          }
        >
          {data.data.map((p) => (
            <Tr key={`${p.manifest_type}-${p.ManifestID}-${p.TrackingNumber ?? ''}`}>
              <Td data-label="Tracking number">
                {p.TrackingNumber ? (
                  <PortalLink
                    href={`/packages/${encodeURIComponent(p.TrackingNumber)}`}
                    className="font-mono font-medium text-brand-700 underline-offset-2 hover:underline"
                  >
                    {p.TrackingNumber}
                  </PortalLink>
                ) : (
                  <NoValue />
                )}
              </Td>
              <Td data-label="Status">
                <StatusBadge status={p.status} />
              </Td>
              <Td data-label="Type">
                <TypeBadge type={p.manifest_type} />
              </Td>
              <Td data-label="Manifest">
                <PortalLink
                  href={`/manifests/${encodeURIComponent(p.ManifestID)}`}
                  className="font-mono text-brand-700 underline-offset-2 hover:underline"
                >
                  {p.ManifestID}
                </PortalLink>
              </Td>
              <Td data-label="Service">{text(p.ServiceName)}</Td>
              <Td data-label="Manifest date">{text(typeof p.ManifestDate === 'string' ? p.ManifestDate.slice(0, 10) : null)}</Td>
              <Td data-label="To postal code">{text(p.ToPostalCode)}</Td>
              <Td data-label="Status since">{formatDateTime(p.status_updated_at)}</Td>
            </Tr>
          ))}
        </ListTable>
      ) : null}
    </div>
  );
}

function text(value: unknown) {
  return typeof value === 'string' && value !== '' ? value : <NoValue />;
}
