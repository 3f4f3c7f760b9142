'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { Fragment, useState } from 'react';
import { DetailLoadError } from '@/components/layout/not-in-environment';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Alert,
  Badge,
  Breadcrumb,
  Button,
  Card,
  CardTitle,
  ErrorState,
  Field,
  FocusOnMount,
  LoadingBlock,
  PageHeader,
  RequestLink,
  Select,
  Table,
  Td,
  Th,
  Tr,
  DateTime,
  useFormatDateTime,
} from '@/components/ui';
import type {
  TRotatedWebhookEndpoint,
  TWebhookDelivery,
  TWebhookDeliveryList,
  TWebhookEndpoint,
  TWebhookRedelivery,
  TWebhookTest,
} from '@/lib/schemas/webhooks';
import { EndpointFormCard } from './endpoint-fields';
import { SecretReveal } from './secret-reveal';
import { EndpointStatus } from './webhook-list';

/** A line above the page's content: what an action did, or why it was refused (linked to its request in Logs). */
interface Notice {
  tone: 'success' | 'danger' | 'info';
  text: string;
  error?: unknown;
}

export function WebhookDetailView({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const portal = usePortalEnvironment();
  const base = `/portal-api/webhooks/${encodeURIComponent(id)}`;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const [editing, setEditing] = useState(false);

  const endpoint = useQuery({
    queryKey: portal.key('webhook', id),
    queryFn: ({ signal }) => portal.fetch<TWebhookEndpoint>(base, { signal }),
  });

  const onError = (error: Error) => setNotice({ tone: 'danger', text: error.message, error });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: portal.key('webhook', id) });
    void queryClient.invalidateQueries({ queryKey: portal.key('webhooks') });
  };

  const formatDateTime = useFormatDateTime();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => portal.fetch<TWebhookEndpoint>(base, { method: 'PATCH', body: { enabled } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(portal.key('webhook', id), updated);
      refresh();
      setNotice({
        tone: 'success',
        text: updated.enabled ? 'Endpoint enabled.' : 'Endpoint disabled: no events are sent to it until you enable it.',
      });
    },
    onError,
  });
  const test = useMutation({
    mutationFn: () => portal.fetch<TWebhookTest>(`${base}/test`, { method: 'POST' }),
    onSuccess: (result) => {
      setNotice({
        tone: 'success',
        text: `Test event queued (message ${result.message_id}). Its attempts appear in the log below.`,
      });
      void queryClient.invalidateQueries({ queryKey: portal.key('webhook-deliveries', id) });
    },
    onError,
  });
  const rotate = useMutation({
    mutationFn: () => portal.fetch<TRotatedWebhookEndpoint>(`${base}/rotate-secret`, { method: 'POST' }),
    onSuccess: (result) => {
      setConfirm(null);
      setSecret(result.secret);
      if (result.previous_secret_expires_at) {
        setNotice({
          tone: 'info',
          text: `The old secret keeps signing beside the new one until ${formatDateTime(result.previous_secret_expires_at)}.`,
        });
      }
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => portal.fetch<void>(base, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: portal.key('webhooks') });
      router.push(portal.href('/webhooks?deleted=1'));
    },
    onError,
  });

  if (endpoint.isPending) return <LoadingBlock label="Loading webhook endpoint…" rows={5} />;
  if (endpoint.isError) {
    return (
      <DetailLoadError
        query={endpoint}
        thing="webhook endpoint"
        id={id}
        list={{ path: '/webhooks', label: 'Back to webhooks' }}
      />
    );
  }
  const e = endpoint.data;

  return (
    <div className="space-y-6">
      <Breadcrumb parentHref={portal.href('/webhooks')} parentLabel="Webhooks" current={e.id} />
      <PageHeader
        title="Webhook endpoint"
        description={<span className="break-all font-mono">{e.url}</span>}
        actions={<EndpointStatus endpoint={e} />}
      />
      {!e.enabled ? (
        <Alert tone={e.disabled_reason ? 'danger' : 'warning'}>
          <span className="font-medium">This endpoint is disabled.</span>{' '}
          {e.disabled_reason ? <>Reason: {e.disabled_reason}</> : 'It was switched off by hand.'} Events are not sent to it until
          it is enabled again.
        </Alert>
      ) : null}
      {notice ? (
        <FocusOnMount focusKey={notice} className="rounded-md">
          <Alert tone={notice.tone}>
            {notice.text}
            <RequestLink error={notice.error} />
          </Alert>
        </FocusOnMount>
      ) : null}
      {secret ? (
        <Card>
          <CardTitle>New signing secret</CardTitle>
          <div className="mt-3">
            <SecretReveal secret={secret} onDone={() => setSecret(null)} />
          </div>
        </Card>
      ) : null}

      {editing ? (
        <EditEndpoint
          endpoint={e}
          onDone={(updated) => {
            setEditing(false);
            if (updated) {
              queryClient.setQueryData(portal.key('webhook', id), updated);
              refresh();
              setNotice({ tone: 'success', text: 'Endpoint updated. Events from now on are sent to the new URL.' });
            }
          }}
        />
      ) : null}

      <Card>
        <CardTitle>Details</CardTitle>
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-600">ID</dt>
            <dd className="font-mono text-slate-900">{e.id}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Events</dt>
            <dd className="font-mono text-slate-900">{e.events.join(', ')}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Description</dt>
            <dd className="text-slate-900">{e.description || <span className="text-slate-500">—</span>}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Created</dt>
            <dd className="text-slate-900">
              <DateTime value={e.created_at} seconds />
            </dd>
          </div>
        </dl>
        <div className="mt-5 flex flex-wrap gap-2">
          <Button onClick={() => test.mutate()} loading={test.isPending} disabled={!e.enabled}>
            Send test event
          </Button>
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={editing}>
            Edit
          </Button>
          <Button variant="secondary" onClick={() => toggle.mutate(!e.enabled)} loading={toggle.isPending}>
            {e.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="secondary" onClick={() => setConfirm('rotate')}>
            Rotate secret
          </Button>
          <Button variant="danger" onClick={() => setConfirm('delete')}>
            Delete
          </Button>
        </div>
        {confirm ? (
          <div role="alertdialog" aria-labelledby="confirm-title" className="mt-4 rounded-md border border-red-200 bg-red-50 p-4">
            <p id="confirm-title" className="text-sm font-medium text-red-900">
              {confirm === 'delete'
                ? 'Delete this endpoint and its delivery log? Events will no longer be sent to it. This cannot be undone.'
                : 'Rotate the signing secret? Deliveries from now on are signed with the new secret, and also with the old one for 24 hours, so your receiver keeps verifying while you deploy the new one.'}
            </p>
            <div className="mt-3 flex gap-2">
              <Button
                variant="danger"
                autoFocus
                loading={confirm === 'delete' ? remove.isPending : rotate.isPending}
                onClick={() => (confirm === 'delete' ? remove.mutate() : rotate.mutate())}
              >
                {confirm === 'delete' ? 'Yes, delete endpoint' : 'Yes, rotate secret'}
              </Button>
              <Button variant="secondary" onClick={() => setConfirm(null)}>
                Cancel
              </Button>
            </div>
          </div>
        ) : null}
      </Card>

      <DeliveryLog id={id} enabled={e.enabled} onNotice={setNotice} />
    </div>
  );
}

/** Editing an endpoint's URL, events and description (PATCH); the signing secret stays. */
function EditEndpoint({ endpoint, onDone }: { endpoint: TWebhookEndpoint; onDone: (updated: TWebhookEndpoint | null) => void }) {
  const portal = usePortalEnvironment();
  return (
    <EndpointFormCard
      title="Edit endpoint"
      submitLabel="Save changes"
      idPrefix="edit-endpoint"
      defaultValues={{ url: endpoint.url, events: endpoint.events, description: endpoint.description }}
      send={(body) =>
        portal.fetch<TWebhookEndpoint>(`/portal-api/webhooks/${encodeURIComponent(endpoint.id)}`, { method: 'PATCH', body })
      }
      onSaved={onDone}
      onCancel={() => onDone(null)}
    />
  );
}

const PRE =
  'mt-1 max-h-60 max-w-[calc(100vw-4rem)] overflow-auto whitespace-pre-wrap break-all rounded border border-slate-200 bg-white p-2 font-mono text-xs text-slate-900';

const OUTCOMES = { all: 'All attempts', succeeded: 'Delivered', failed: 'Failed' } as const;
const isOutcome = (value: string): value is keyof typeof OUTCOMES => Object.hasOwn(OUTCOMES, value);

function DeliveryLog({ id, enabled, onNotice }: { id: string; enabled: boolean; onNotice: (n: Notice) => void }) {
  const queryClient = useQueryClient();
  const portal = usePortalEnvironment();
  const base = `/portal-api/webhooks/${encodeURIComponent(id)}/deliveries`;
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<keyof typeof OUTCOMES>('all');
  const log = useInfiniteQuery({
    queryKey: portal.key('webhook-deliveries', id, outcome),
    queryFn: ({ pageParam, signal }) =>
      portal.fetch<TWebhookDeliveryList>(
        `${base}?limit=20${outcome === 'all' ? '' : `&outcome=${outcome}`}${pageParam ? `&cursor=${pageParam}` : ''}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Attempts arrive from the delivery worker; keep the first page fresh while the page is open.
    refetchInterval: 3_000,
  });
  const redeliver = useMutation({
    mutationFn: (delivery: TWebhookDelivery) =>
      portal.fetch<TWebhookRedelivery>(`${base}/${delivery.id}/redeliver`, { method: 'POST' }),
    onSuccess: (_, delivery) => {
      onNotice({ tone: 'success', text: `Message ${delivery.message_id} queued for redelivery.` });
      void queryClient.invalidateQueries({ queryKey: portal.key('webhook-deliveries', id) });
    },
    onError: (error) => onNotice({ tone: 'danger', text: error.message, error }),
  });
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-labelledby="log-title" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-4 sm:px-6">
        <h2 id="log-title" className="text-base font-semibold text-slate-900">
          Delivery log
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-xs text-slate-600">Every attempt, newest first. Refreshes every few seconds.</p>
          <Field label="Show" className="flex items-center gap-2 space-y-0">
            <Select value={outcome} onChange={(event) => setOutcome(isOutcome(event.target.value) ? event.target.value : 'all')}>
              {Object.entries(OUTCOMES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </div>
      {log.isPending ? (
        <div className="px-4 sm:px-6">
          <LoadingBlock label="Loading deliveries…" rows={3} />
        </div>
      ) : log.isError ? (
        <div className="p-4">
          <ErrorState title="Could not load deliveries" error={log.error} onRetry={() => void log.refetch()} />
        </div>
      ) : rows.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-600 sm:px-6">
          {outcome === 'all'
            ? 'No delivery attempts yet. Send a test event to try the endpoint.'
            : `No ${outcome === 'succeeded' ? 'delivered' : 'failed'} attempts.`}
        </p>
      ) : (
        <div className="mt-3 px-4 sm:px-0">
          <Table label="Delivery attempts">
            <thead className="bg-slate-50">
              <tr>
                <Th>
                  <span className="sr-only">Details</span>
                </Th>
                <Th>Time</Th>
                <Th>Event</Th>
                <Th>Attempt</Th>
                <Th>Result</Th>
                <Th className="text-right">Duration</Th>
                <Th>Message</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => {
                const expanded = open.has(d.id);
                return (
                  <Fragment key={d.id}>
                    <Tr data-testid="delivery-row">
                      <Td>
                        <button
                          type="button"
                          aria-expanded={expanded}
                          aria-controls={`${d.id}-details`}
                          onClick={() => toggle(d.id)}
                          className="rounded px-1 text-brand-700 hover:bg-brand-50"
                        >
                          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
                          <span className="sr-only">
                            {expanded ? 'Hide' : 'Show'} request and response of attempt {d.id}
                          </span>
                        </button>
                      </Td>
                      <Td>
                        <DateTime value={d.attempted_at} seconds />
                      </Td>
                      <Td>
                        <span className="font-mono">{d.event_type}</span> {d.test ? <Badge tone="info">test</Badge> : null}
                      </Td>
                      <Td className="tabular-nums">#{d.attempt}</Td>
                      <Td>
                        {d.success ? (
                          <Badge tone="success">{d.status_code ?? 'OK'} delivered</Badge>
                        ) : (
                          <Badge tone="danger">{d.status_code ? `${d.status_code} failed` : 'No response'}</Badge>
                        )}
                        {d.next_attempt_at ? (
                          <span className="mt-1 block text-xs text-slate-600">
                            Retry at <DateTime value={d.next_attempt_at} seconds />
                          </span>
                        ) : null}
                      </Td>
                      <Td className="text-right tabular-nums">{d.duration_ms} ms</Td>
                      <Td className="font-mono text-xs">{d.message_id}</Td>
                      <Td>
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={!enabled}
                          loading={redeliver.isPending && redeliver.variables?.id === d.id}
                          onClick={() => redeliver.mutate(d)}
                        >
                          Redeliver
                        </Button>
                      </Td>
                    </Tr>
                    {expanded ? (
                      <tr id={`${d.id}-details`} className="bg-slate-50">
                        <td colSpan={8} className="px-3 py-3 text-sm">
                          <p className="text-slate-700">
                            Message status: <strong>{d.message_status}</strong>
                            {d.error ? (
                              <>
                                {' '}
                                · Error: <span className="text-red-800">{d.error}</span>
                              </>
                            ) : null}
                          </p>
                          {d.next_attempt_at ? (
                            <p className="mt-1 text-slate-700">
                              Next attempt: <DateTime value={d.next_attempt_at} seconds />
                            </p>
                          ) : null}
                          {d.request ? (
                            <>
                              <p className="mt-2 font-medium text-slate-800">Request headers</p>
                              <pre className={PRE}>
                                {Object.entries(d.request.headers)
                                  .map(([name, value]) => `${name}: ${value}`)
                                  .join('\n')}
                              </pre>
                              <p className="mt-2 font-medium text-slate-800">
                                Request body ({d.request.body_bytes.toLocaleString()} bytes
                                {new TextEncoder().encode(d.request.body).length < d.request.body_bytes
                                  ? ', the first 16 KB shown'
                                  : ''}
                                )
                              </p>
                              <pre className={PRE}>{d.request.body}</pre>
                            </>
                          ) : (
                            <p className="mt-2 text-slate-700">Nothing was sent in this attempt.</p>
                          )}
                          <p className="mt-2 font-medium text-slate-800">Response body (first 2 KB)</p>
                          <pre className={PRE}>{d.response_body || '(empty)'}</pre>
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </Table>
          {log.hasNextPage ? (
            <div className="border-t border-slate-200 px-4 py-3">
              <Button size="sm" variant="secondary" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
                Load older attempts
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </section>
  );
}
