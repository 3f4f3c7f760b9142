'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { SaveRow } from '@/components/settings/save-row';
import { SettingLoader, useSaveSetting, type SettingSource } from '@/components/settings/setting-loader';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  EmptyState,
  ErrorState,
  ListTable,
  LoadingBlock,
  RequestLink,
  Td,
  Th,
  Tr,
} from '@/components/ui';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import type { TBillingSettings, TInvoice, TInvoiceCloseResponse, TInvoiceList, TOpenBillingPeriod } from '@/lib/schemas/invoices';

// The Billing page: what is not invoiced yet (the running total and its adjustments), the past invoices with their CSV
// and PDF, and the billing period. Every figure is the server's exact decimal text; nothing is summed here.

const day = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
/** The last day of a period whose end is exclusive. */
const lastDay = (iso: string, timeZone: string) => day(new Date(Date.parse(iso) - 1).toISOString(), timeZone);
const invoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;

export function BillingView() {
  return (
    <div className="space-y-6">
      <OpenPeriod />
      <Invoices />
      <BillingPeriodForm />
    </div>
  );
}

function OpenPeriod() {
  const portal = usePortalEnvironment();
  const open = useQuery({
    queryKey: portal.key('billing', 'open'),
    queryFn: ({ signal }) => portal.fetch<TOpenBillingPeriod>('/portal-api/billing/open', { signal }),
  });
  if (open.isPending) return <LoadingBlock label="Loading the running total…" rows={2} />;
  if (open.isError)
    return <ErrorState title="Could not load the running total" error={open.error} onRetry={() => void open.refetch()} />;
  const o = open.data;
  return (
    <Card>
      <CardTitle>Not invoiced yet</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        The {o.period_kind === 'week' ? 'week' : 'month'} from {day(o.period_start, o.time_zone)} to{' '}
        {lastDay(o.period_end, o.time_zone)} ({o.time_zone}). Its invoice is issued a few minutes after it ends, with anything
        earlier not invoiced yet.
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="open-period">
        <Figure label="Running total" value={`${o.total} ${o.currency}`} strong />
        <Figure label="Charges" value={o.charges} />
        <Figure label="Adjustments" value={o.adjustments} />
        <Figure label="Voids (credits)" value={o.voids} />
      </dl>
      <p className="mt-2 text-xs text-slate-600">{o.line_count.toLocaleString('en-US')} line(s).</p>
      <h3 className="mt-6 text-sm font-semibold text-slate-900">Adjustments</h3>
      {o.recent_adjustments.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None: every package so far was measured as declared.</p>
      ) : (
        <div className="mt-2">
          <ListTable
            label="Adjustments not invoiced yet"
            head={
              <>
                <Th>Date</Th>
                <Th>Package</Th>
                <Th>Service</Th>
                <Th>Reason</Th>
                <Th className="text-right">Amount</Th>
              </>
            }
          >
            {o.recent_adjustments.map((a, i) => (
              <Tr key={`${a.carrier_barcode}-${i}`}>
                <Td data-label="Date">{day(a.occurred_at, o.time_zone)}</Td>
                <Td data-label="Package">{a.tracking_number ?? a.carrier_barcode}</Td>
                <Td data-label="Service">{a.service}</Td>
                <Td data-label="Reason" className="whitespace-normal">
                  {a.reason || '—'}
                </Td>
                <Td data-label="Amount" className="text-right tabular-nums">
                  {a.amount}
                </Td>
              </Tr>
            ))}
          </ListTable>
        </div>
      )}
      <CloseNow />
    </Card>
  );
}

function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className={strong ? 'text-xl font-semibold tabular-nums text-slate-900' : 'text-base tabular-nums text-slate-900'}>
        {value}
      </dd>
    </div>
  );
}

/** Test environment only: issue the invoice of everything open now, as a period's close would. */
function CloseNow() {
  const portal = usePortalEnvironment();
  const client = useQueryClient();
  const canClose = useCan('billing:manage');
  const close = useMutation({
    mutationFn: () => portal.fetch<TInvoiceCloseResponse>('/portal-api/invoices/close', { method: 'POST', body: {} }),
    onSuccess: () => void client.invalidateQueries({ queryKey: portal.key('billing') }),
  });
  if (portal.environment !== 'test' || !canClose) return null;
  return (
    <div className="mt-6 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
      <Button variant="secondary" loading={close.isPending} onClick={() => close.mutate()}>
        Close the period now (test)
      </Button>
      <span className="text-sm text-slate-600">Issues a test invoice for everything above, and sends invoice.created.</span>
      {close.isSuccess ? (
        <Alert tone="success">
          {close.data.invoice ? `Issued ${invoiceNumber(close.data.invoice.number)}.` : 'Nothing was left to invoice.'}
        </Alert>
      ) : null}
      {close.isError ? (
        <Alert tone="danger">
          {close.error instanceof Error ? close.error.message : 'Could not close.'}
          <RequestLink error={close.error} />
        </Alert>
      ) : null}
    </div>
  );
}

function Invoices() {
  const portal = usePortalEnvironment();
  const list = useInfiniteQuery({
    queryKey: portal.key('billing', 'invoices'),
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) =>
      portal.fetch<TInvoiceList>(`/portal-api/invoices?limit=24${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, {
        signal,
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (list.isPending) return <LoadingBlock label="Loading invoices…" rows={3} />;
  if (list.isError) return <ErrorState title="Could not load invoices" error={list.error} onRetry={() => void list.refetch()} />;
  const invoices = list.data.pages.flatMap((page) => page.data);
  return (
    // A heading, not a second landmark: the table below is the "Invoices" region already.
    <div>
      <h2 className="mb-2 text-lg font-semibold text-slate-900">Invoices</h2>
      {invoices.length === 0 ? (
        <EmptyState title="No invoices yet">
          The first is issued when a period with charges ends.
          {portal.environment === 'test' ? ' In test, “Close the period now” issues one at once.' : ''}
        </EmptyState>
      ) : (
        <ListTable
          label="Invoices"
          head={
            <>
              <Th>Number</Th>
              <Th>Period</Th>
              <Th className="text-right">Lines</Th>
              <Th className="text-right">Total</Th>
              <Th>Issued</Th>
              <Th>Download</Th>
            </>
          }
          footer={
            list.hasNextPage ? (
              <div className="border-t border-slate-100 p-3">
                <Button variant="secondary" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                  Older invoices
                </Button>
              </div>
            ) : undefined
          }
        >
          {invoices.map((invoice) => (
            <InvoiceRow key={invoice.id} invoice={invoice} />
          ))}
        </ListTable>
      )}
    </div>
  );
}

function InvoiceRow({ invoice }: { invoice: TInvoice }) {
  const portal = usePortalEnvironment();
  const base = `/portal-api/invoices/${invoice.id}`;
  // A download cannot send a header: the environment goes in the query (GET only), as the print links' does.
  const query = new URLSearchParams({ [ENVIRONMENT_QUERY]: portal.environment });
  const link = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';
  return (
    <Tr>
      <Td data-label="Number" className="font-medium">
        {invoiceNumber(invoice.number)} {invoice.test ? <Badge tone="warning">Test</Badge> : null}
      </Td>
      <Td data-label="Period">
        {day(invoice.period_start, invoice.time_zone)} – {lastDay(invoice.period_end, invoice.time_zone)}
      </Td>
      <Td data-label="Lines" className="text-right tabular-nums">
        {invoice.line_count.toLocaleString('en-US')}
      </Td>
      <Td data-label="Total" className="text-right font-semibold tabular-nums">
        {invoice.total} {invoice.currency}
      </Td>
      <Td data-label="Issued">{day(invoice.issued_at, invoice.time_zone)}</Td>
      <Td data-label="Download">
        <span className="flex gap-3">
          <a className={link} href={`${base}/document?${query}`} download>
            PDF<span className="sr-only"> of {invoiceNumber(invoice.number)}</span>
          </a>
          <a className={link} href={`${base}/lines?${query}`} download>
            CSV<span className="sr-only"> of {invoiceNumber(invoice.number)}</span>
          </a>
        </span>
      </Td>
    </Tr>
  );
}

function BillingPeriodForm() {
  return (
    <SettingLoader<TBillingSettings> name="billing" what="the billing period" rows={1}>
      {(current, source) => <BillingPeriodFields current={current} source={source} />}
    </SettingLoader>
  );
}

function BillingPeriodFields({ current, source }: { current: TBillingSettings; source: SettingSource }) {
  const portal = usePortalEnvironment();
  const client = useQueryClient();
  const canChange = useCan('billing:manage');
  const [chosen, setChosen] = useState<'month' | 'week' | undefined>(undefined);
  // The open period's dates follow the setting, so its running total is read again.
  const save = useSaveSetting<{ period: 'month' | 'week' }, TBillingSettings>(
    source,
    () => void client.invalidateQueries({ queryKey: portal.key('billing', 'open') }),
  );
  const period = chosen ?? current.period;
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ period });
  }
  return (
    <Card>
      <CardTitle>Billing period</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        For the whole account, both environments, read in this environment&apos;s close-out time zone ({current.time_zone}
        ). A change applies from the next invoice.
      </p>
      <form onSubmit={submit} aria-label="Billing period" className="mt-4">
        <fieldset disabled={!canChange} className="space-y-2">
          <legend className="sr-only">Invoice every</legend>
          {(['month', 'week'] as const).map((value) => (
            <label key={value} className="flex items-center gap-3 text-sm">
              <input
                type="radio"
                name="period"
                value={value}
                checked={period === value}
                onChange={() => setChosen(value)}
                className="h-4 w-4 border-slate-400 text-brand-600"
              />
              {value === 'month' ? 'Monthly (calendar months)' : 'Weekly (Monday to Sunday)'}
            </label>
          ))}
          <SaveRow
            save={save}
            canChange={canChange}
            what="change the billing period"
            permission="billing:manage"
            saved={(data) => `Saved: invoiced ${data.period === 'week' ? 'weekly' : 'monthly'}.`}
          />
        </fieldset>
      </form>
    </Card>
  );
}
