'use client';
import { KeysetPager, useExportHref, useKeysetList } from '@/components/layout/keyset-list';
import { PortalLink } from '@/components/layout/portal-context';
import { StatusBadge, statusLabel } from '@/components/lifecycle/status-badge';
import { TypeBadge } from '@/components/manifests/manifest-list';
import { MANIFEST_DAY_RANGE } from '@/components/manifests/header-fields';
import {
  buttonClass,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  ListTable,
  LoadingBlock,
  NoValue,
  Select,
  Td,
  Th,
  Tr,
  NothingMatches,
  useUrlFilters,
} from '@/components/ui';
import { PACKAGE_STATUSES } from '@/lib/status/transitions';
import { formatDateTime } from '@/lib/portal/format';
import { PACKAGE_FILTERS, type TPackageList } from '@/lib/portal/package-list-types';
import { SERVICES } from '@/lib/schemas/rate';

const PAGE_SIZE = 25;

/** Every package of the environment, container and daily, newest first; filters and page in the URL. */
export function PackageListView() {
  const filters = useUrlFilters(PACKAGE_FILTERS, {
    history: 'push',
    range: { from: 'from', to: 'to', fromLabel: 'Manifest date from' },
  });
  const { form, bind, filtered } = filters;
  const { list, ...pages } = useKeysetList<TPackageList, (typeof PACKAGE_FILTERS)[number]>(filters, {
    key: 'packages',
    path: '/portal-api/packages',
    pageSize: PAGE_SIZE,
  });
  const { cursor, firstPage } = pages;
  const exportHref = useExportHref(filters, '/portal-api/exports/packages');
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
          <a href={exportHref} download className={`${buttonClass({ variant: 'secondary' })} sm:ml-auto`}>
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
          <NothingMatches noun="packages" paged={!!cursor} onFirstPage={firstPage} onClear={filters.clear} />
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
            <KeysetPager
              summary={`${data.data.length} package${data.data.length === 1 ? '' : 's'} on this page · newest first`}
              page={data}
              pages={pages}
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
