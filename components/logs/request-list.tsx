'use client';
import { KeysetPager, useKeysetList } from '@/components/layout/keyset-list';
import { PortalLink } from '@/components/layout/portal-context';
import {
  Badge,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  ListTable,
  LoadingBlock,
  Select,
  Td,
  Th,
  Tr,
  NothingMatches,
  useUrlFilters,
  DateTime,
} from '@/components/ui';
import { REQUEST_METHODS, type TRequestLogList } from '@/lib/schemas/request-log';

/** The Logs page's filters, as GET /requests takes them (and the page's URL keeps them). */
export const REQUEST_FILTERS = ['status', 'method', 'path', 'request_id', 'source', 'from', 'to'] as const;

const PAGE_SIZE = 50;

export function StatusCode({ status }: { status: number }) {
  return <Badge tone={status >= 500 ? 'danger' : status >= 400 ? 'warning' : 'success'}>{status}</Badge>;
}

/** The account's requests in this environment, newest first; filters and page in the URL. */
export function RequestListView() {
  const filters = useUrlFilters(REQUEST_FILTERS, { history: 'push', range: { from: 'from', to: 'to', fromLabel: 'From' } });
  const { bind, filtered } = filters;
  const { list, ...pages } = useKeysetList<TRequestLogList, (typeof REQUEST_FILTERS)[number]>(filters, {
    key: 'requests',
    path: '/portal-api/requests',
    pageSize: PAGE_SIZE,
  });
  const { cursor, firstPage } = pages;

  const data = list.data;

  return (
    <div className="space-y-4">
      <FilterBar label="Filter requests" columns={4} filtered={filtered} onSubmit={filters.apply} onClear={filters.clear}>
        <Field label="Status">
          <Select {...bind('status')}>
            <option value="">Any status</option>
            <option value="2xx">Succeeded (2xx)</option>
            <option value="error">Failed (4xx and 5xx)</option>
            <option value="4xx">Refused (4xx)</option>
            <option value="5xx">Server errors (5xx)</option>
          </Select>
        </Field>
        <Field label="Method">
          <Select {...bind('method')}>
            <option value="">Any method</option>
            {REQUEST_METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Source">
          <Select {...bind('source')}>
            <option value="">API and portal</option>
            <option value="api">API (tokens)</option>
            <option value="portal">Portal</option>
          </Select>
        </Field>
        <Field label="Path starts with">
          <Input
            maxLength={200}
            {...bind('path')}
            placeholder="/wf/package"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        </Field>
        <Field label="Request ID" className="sm:col-span-2">
          <Input
            maxLength={128}
            {...bind('request_id')}
            placeholder="req_…"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
          />
        </Field>
        <Field label="From">
          <Input type="date" min="2000-01-01" max="2099-12-31" {...bind('from')} />
        </Field>
        <Field label="To" error={filters.errorOf('to')}>
          <Input type="date" min="2000-01-01" max="2099-12-31" {...bind('to')} />
        </Field>
      </FilterBar>

      {list.isPending ? (
        <LoadingBlock label="Loading requests…" rows={6} />
      ) : list.isError ? (
        <ErrorState
          title="Could not load the request log"
          error={list.error}
          onRetry={cursor ? firstPage : () => void list.refetch()}
        />
      ) : data && data.data.length === 0 ? (
        filtered || cursor ? (
          <NothingMatches noun="requests" paged={!!cursor} onFirstPage={firstPage} onClear={filters.clear} />
        ) : (
          <EmptyState title="No requests yet">
            Every request your API tokens send in this environment appears here within a second, with what it sent and what it was
            answered; so do the portal&apos;s own changes and errors. Requests are kept 30 days.
          </EmptyState>
        )
      ) : data ? (
        <ListTable
          label="Requests"
          busy={list.isFetching}
          head={
            <>
              <Th>Time</Th>
              <Th>Status</Th>
              <Th>Method</Th>
              <Th>Path</Th>
              <Th>Duration</Th>
              <Th>From</Th>
              <Th>Request ID</Th>
            </>
          }
          footer={
            <KeysetPager
              summary={`${data.data.length} request${data.data.length === 1 ? '' : 's'} on this page · newest first · kept 30 days`}
              page={data}
              pages={pages}
            />
          }
        >
          {data.data.map((r) => (
            <Tr key={`${r.id}-${r.created_at}`}>
              <Td data-label="Time">
                <DateTime value={r.created_at} seconds />
              </Td>
              <Td data-label="Status">
                <StatusCode status={r.status} />
              </Td>
              <Td data-label="Method" className="font-mono">
                {r.method}
              </Td>
              <Td data-label="Path" className="max-w-xs break-all font-mono">
                {r.path}
                {r.error_code ? <span className="block text-xs text-slate-600">{r.error_code}</span> : null}
              </Td>
              <Td data-label="Duration">{r.duration_ms} ms</Td>
              <Td data-label="From">
                {r.token ? `Token ${r.token.name || r.token.prefix}` : r.user ? `Portal · ${r.user.email ?? 'a user'}` : 'Portal'}
              </Td>
              <Td data-label="Request ID">
                <PortalLink
                  href={`/logs/${encodeURIComponent(r.id)}`}
                  className="break-all font-mono text-brand-700 underline-offset-2 hover:underline"
                  aria-label={`Request ${r.id}: ${r.method} ${r.path}, ${r.status}`}
                >
                  {r.id}
                </PortalLink>
              </Td>
            </Tr>
          ))}
        </ListTable>
      ) : null}
    </div>
  );
}
