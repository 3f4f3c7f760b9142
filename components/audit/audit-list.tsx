'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Badge,
  Button,
  buttonClass,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  ListTable,
  LoadingBlock,
  NothingMatches,
  Pager,
  Select,
  Td,
  Th,
  Tr,
  useKeysetPages,
  useUrlFilters,
} from '@/components/ui';
import { AUDIT_ACTIONS } from '@/lib/audit/actions';
import { formatDateTime } from '@/lib/portal/format';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import type { TAuditEvent, TAuditEventList } from '@/lib/schemas/audit';

/** The Audit page's filters, as GET /portal-api/audit takes them (and the page's URL keeps them). */
export const AUDIT_FILTERS = ['action', 'actor', 'from', 'to'] as const;

const PAGE_SIZE = 50;

function actorText(event: TAuditEvent): string {
  if (event.actor.kind === 'api_token') return `API token ${event.actor.label}`;
  if (event.actor.kind === 'system') return 'The service (automatic)';
  return event.actor.label;
}

function detailsText(event: TAuditEvent): string {
  return Object.entries(event.details)
    .map(([key, value]) => `${key.replaceAll('_', ' ')}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');
}

/** The account's audit log, newest first (both environments); filters and page in the URL; a CSV of the filtered rows. */
export function AuditListView() {
  const portal = usePortalEnvironment();
  const filters = useUrlFilters(AUDIT_FILTERS, { history: 'push', range: { from: 'from', to: 'to', fromLabel: 'From' } });
  const { bind, filtered } = filters;
  const { cursor, firstPage, nextPage, previousPage, hasPrevious } = useKeysetPages(filters);

  const query = filters.query();
  query.set('limit', String(PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  const list = useQuery({
    queryKey: portal.key('audit', query.toString()),
    queryFn: ({ signal }) => portal.fetch<TAuditEventList>(`/portal-api/audit?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const exportQuery = filters.query();
  // A download link cannot send a header: the environment goes in the query (GET only).
  exportQuery.set(ENVIRONMENT_QUERY, portal.environment);
  const data = list.data;

  return (
    <div className="space-y-4">
      <FilterBar
        label="Filter the audit log"
        columns={4}
        filtered={filtered}
        onSubmit={filters.apply}
        onClear={filters.clear}
        actions={
          <a href={`/portal-api/audit/export?${exportQuery}`} download className={`${buttonClass({ variant: 'secondary' })} sm:ml-auto`}>
            {filtered ? 'Export these events (CSV)' : 'Export all events (CSV)'}
          </a>
        }
      >
        <Field label="Action">
          <Select {...bind('action')}>
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Actor e-mail">
          <Input type="search" maxLength={254} {...bind('actor')} placeholder="name@example.com" autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="From">
          <Input type="date" min="2000-01-01" max="2099-12-31" {...bind('from')} />
        </Field>
        <Field label="To" error={filters.errorOf('to')}>
          <Input type="date" min="2000-01-01" max="2099-12-31" {...bind('to')} />
        </Field>
      </FilterBar>

      {list.isPending ? (
        <LoadingBlock label="Loading the audit log…" rows={6} />
      ) : list.isError ? (
        <ErrorState title="Could not load the audit log" error={list.error} onRetry={cursor ? firstPage : () => void list.refetch()} />
      ) : data && data.data.length === 0 ? (
        filtered || cursor ? (
          <NothingMatches noun="events" paged={!!cursor} onFirstPage={firstPage} onClear={filters.clear} />
        ) : (
          <EmptyState title="Nothing recorded yet">
            Sign-ins, password changes, tokens, webhooks, cancellations, closes and settings changes of this account appear here,
            with who did them and from which address. Events are kept a year.
          </EmptyState>
        )
      ) : data ? (
        <ListTable
          label="Audit events"
          busy={list.isFetching}
          head={
            <>
              <Th>Time</Th>
              <Th>Action</Th>
              <Th>Actor</Th>
              <Th>Address</Th>
              <Th>Target</Th>
              <Th>Details</Th>
            </>
          }
          footer={
            <Pager
              summary={`${data.data.length} event${data.data.length === 1 ? '' : 's'} on this page · newest first · kept a year`}
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
          {data.data.map((event) => (
            <Tr key={event.id}>
              <Td data-label="Time" className="whitespace-nowrap">
                {formatDateTime(event.occurred_at, { seconds: true })}
              </Td>
              <Td data-label="Action">
                <div className="text-right sm:text-left">
                  <span className="font-mono text-sm">{event.action}</span>
                  {event.environment ? (
                    <Badge tone={event.environment === 'live' ? 'warning' : 'neutral'} className="ml-2">
                      {event.environment}
                    </Badge>
                  ) : null}
                </div>
              </Td>
              <Td data-label="Actor" className="whitespace-normal">
                <div className="max-w-[16rem] whitespace-normal break-all text-right sm:text-left">{actorText(event)}</div>
              </Td>
              <Td data-label="Address" className="whitespace-normal">
                <div className="max-w-[14rem] whitespace-normal text-right sm:text-left">
                  <span className="block break-all font-mono text-sm">{event.client_address ?? '—'}</span>
                  {event.user_agent ? (
                    <span className="block truncate text-xs text-slate-600" title={event.user_agent}>
                      {event.user_agent}
                    </span>
                  ) : null}
                </div>
              </Td>
              <Td data-label="Target" className="whitespace-normal">
                <div className="max-w-[11rem] whitespace-normal text-right sm:text-left">
                  {event.target ? (
                    <>
                      <span className="block text-xs text-slate-600">{event.target.type.replaceAll('_', ' ')}</span>
                      <span className="block break-all font-mono text-xs">{event.target.id}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </div>
              </Td>
              <Td data-label="Details" className="whitespace-normal">
                <div className="min-w-[10rem] max-w-xs whitespace-normal break-words text-right text-sm text-slate-700 sm:text-left">{detailsText(event) || '—'}</div>
              </Td>
            </Tr>
          ))}
        </ListTable>
      ) : null}
    </div>
  );
}
