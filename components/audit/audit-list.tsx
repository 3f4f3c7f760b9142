'use client';
import { KeysetPager, useExportHref, useKeysetList } from '@/components/layout/keyset-list';
import {
  Badge,
  buttonClass,
  EmptyState,
  ErrorState,
  Field,
  FilterBar,
  Input,
  ListTable,
  LoadingBlock,
  NothingMatches,
  Select,
  Td,
  Th,
  Tr,
  useUrlFilters,
  DateTime,
} from '@/components/ui';
import { AUDIT_ACTIONS } from '@/lib/audit/actions';
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
  const filters = useUrlFilters(AUDIT_FILTERS, { history: 'push', range: { from: 'from', to: 'to', fromLabel: 'From' } });
  const { bind, filtered } = filters;
  const { list, ...pages } = useKeysetList<TAuditEventList, (typeof AUDIT_FILTERS)[number]>(filters, {
    key: 'audit',
    path: '/portal-api/audit',
    pageSize: PAGE_SIZE,
  });
  const { cursor, firstPage } = pages;
  const exportHref = useExportHref(filters, '/portal-api/audit/export');
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
          <a href={exportHref} download className={`${buttonClass({ variant: 'secondary' })} sm:ml-auto`}>
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
          <Input
            type="search"
            maxLength={254}
            {...bind('actor')}
            placeholder="name@example.com"
            autoComplete="off"
            spellCheck={false}
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
        <LoadingBlock label="Loading the audit log…" rows={6} />
      ) : list.isError ? (
        <ErrorState
          title="Could not load the audit log"
          error={list.error}
          onRetry={cursor ? firstPage : () => void list.refetch()}
        />
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
            <KeysetPager
              summary={`${data.data.length} event${data.data.length === 1 ? '' : 's'} on this page · newest first · kept a year`}
              page={data}
              pages={pages}
            />
          }
        >
          {data.data.map((event) => (
            <Tr key={event.id}>
              <Td data-label="Time" className="whitespace-nowrap">
                <DateTime value={event.occurred_at} seconds />
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
                <div className="min-w-[10rem] max-w-xs whitespace-normal break-words text-right text-sm text-slate-700 sm:text-left">
                  {detailsText(event) || '—'}
                </div>
              </Td>
            </Tr>
          ))}
        </ListTable>
      ) : null}
    </div>
  );
}
