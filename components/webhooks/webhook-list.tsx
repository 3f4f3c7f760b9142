'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingBlock,
  DateTime,
} from '@/components/ui';
import { WEBHOOK_FAILURE_STREAK_CAP, type TWebhookHealthResponse } from '@/lib/schemas/portal-responses';
import {
  PACKAGE_SORTING_EVENT,
  WEBHOOK_EVENTS,
  type TWebhookEndpoint,
  type TWebhookEndpointList,
  type TWebhookEndpointWithSecret,
} from '@/lib/schemas/webhooks';
import { EndpointFormCard, EVENT_DESCRIPTIONS } from './endpoint-fields';
import { SecretReveal } from './secret-reveal';

type Health = TWebhookHealthResponse['endpoints'][number];

/** One line on how deliveries to an endpoint are going: its last attempt, and the run of failures it ends, if any. */
function EndpointHealth({ health }: { health: Health | undefined }) {
  if (!health) return null;
  if (!health.lastAttemptAt) {
    return (
      <p className="mt-1 text-sm text-slate-600" data-testid="endpoint-health">
        No deliveries yet.
      </p>
    );
  }
  const code = health.lastStatusCode === null ? '' : ` (HTTP ${health.lastStatusCode})`;
  const streak = health.failureStreak;
  return (
    <div className="mt-1 space-y-0.5 text-sm" data-testid="endpoint-health">
      <p className={health.lastSuccess ? 'text-slate-700' : 'text-red-800'}>
        Last delivery <DateTime value={health.lastAttemptAt} />: {health.lastSuccess ? 'succeeded' : 'failed'}
        {code}
        {!health.lastSuccess && health.lastStatusCode === null && health.lastError ? (
          <span className="break-words"> — {health.lastError.slice(0, 160)}</span>
        ) : null}
      </p>
      {streak > 0 ? (
        <p className="font-medium text-red-800">
          {streak >= WEBHOOK_FAILURE_STREAK_CAP ? `${streak.toLocaleString('en-US')} or more` : streak.toLocaleString('en-US')}{' '}
          failed attempt{streak === 1 ? '' : 's'} in a row
          {health.failingSince ? (
            <>
              , failing since <DateTime value={health.failingSince} />
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/** The events an endpoint can be sent, named in the intro so that nobody has to open the form to find out. */
function EventTypes() {
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700" data-testid="event-types">
      <summary className="cursor-pointer font-medium text-slate-900">
        {WEBHOOK_EVENTS.length} event types:{' '}
        <span className="font-normal text-slate-700">
          {WEBHOOK_EVENTS.map((event, i) => (
            <span key={event}>
              {i ? ', ' : ''}
              <code>{event}</code>
            </span>
          ))}
        </span>
      </summary>
      <ul className="mt-2 grid gap-1 sm:grid-cols-2">
        {WEBHOOK_EVENTS.map((event) => (
          <li key={event}>
            <code>{event}</code> <span className="text-slate-600">— {EVENT_DESCRIPTIONS[event]}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function EndpointStatus({ endpoint }: { endpoint: Pick<TWebhookEndpoint, 'enabled' | 'disabled_reason'> }) {
  if (endpoint.enabled) return <Badge tone="success">Enabled</Badge>;
  return <Badge tone={endpoint.disabled_reason ? 'danger' : 'neutral'}>Disabled</Badge>;
}

export function WebhookListView({ deleted = false }: { deleted?: boolean }) {
  const [creating, setCreating] = useState(false);
  const portal = usePortalEnvironment();
  const list = useQuery({
    queryKey: portal.key('webhooks'),
    queryFn: ({ signal }) => portal.fetch<TWebhookEndpointList>('/portal-api/webhooks', { signal }),
  });
  const health = useQuery({
    queryKey: portal.key('webhooks', 'health'),
    queryFn: ({ signal }) => portal.fetch<TWebhookHealthResponse>('/portal-api/webhooks/health', { signal }),
  });
  const healthOf = new Map(health.data?.endpoints.map((h) => [h.endpointId, h]));

  return (
    <div className="space-y-4">
      {deleted ? <Alert tone="success">Endpoint deleted.</Alert> : null}
      <EventTypes />
      {creating ? (
        <CreateWebhookForm existing={list.data?.data ?? []} onClose={() => setCreating(false)} />
      ) : (
        <Button onClick={() => setCreating(true)}>Add endpoint</Button>
      )}
      {list.isPending ? (
        <LoadingBlock label="Loading webhook endpoints…" rows={3} />
      ) : list.isError ? (
        <ErrorState title="Could not load webhook endpoints" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        creating ? null : (
          <EmptyState title="No webhook endpoints yet">
            Add an endpoint to be notified (event <code>package.sorting</code>) each time a package manifest is accepted.
          </EmptyState>
        )
      ) : (
        <ul className="space-y-3" aria-label="Webhook endpoints">
          {list.data.data.map((endpoint) => (
            <li key={endpoint.id}>
              <Card className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <PortalLink
                    href={`/webhooks/${encodeURIComponent(endpoint.id)}`}
                    className="break-all font-mono text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                  >
                    {endpoint.url}
                  </PortalLink>
                  <p className="mt-1 text-sm text-slate-600">
                    {endpoint.description || 'No description'} · {endpoint.events.join(', ')}
                  </p>
                  {!endpoint.enabled && endpoint.disabled_reason ? (
                    <p className="mt-1 text-sm text-red-800">Disabled: {endpoint.disabled_reason}</p>
                  ) : null}
                  <EndpointHealth health={healthOf.get(endpoint.id)} />
                </div>
                <EndpointStatus endpoint={endpoint} />
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The same address however it was typed (host case, a default port, a trailing slash on the root). */
function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => {
    try {
      return new URL(url.trim()).href;
    } catch {
      return url.trim();
    }
  };
  return normal(a) === normal(b);
}

function CreateWebhookForm({ existing, onClose }: { existing: TWebhookEndpoint[]; onClose: () => void }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const portal = usePortalEnvironment();
  const [created, setCreated] = useState<TWebhookEndpointWithSecret | null>(null);
  // A second endpoint on a URL that has one gets every event twice: asked first, in a dialog that answers this promise.
  const [duplicateOf, setDuplicateOf] = useState<TWebhookEndpoint | null>(null);
  const answer = useRef<(add: boolean) => void>(() => {});
  const decide = (add: boolean) => {
    setDuplicateOf(null);
    answer.current(add);
    answer.current = () => {};
  };

  if (created) {
    return (
      <Card>
        <CardTitle>Endpoint added</CardTitle>
        <p className="mt-1 break-all font-mono text-sm text-slate-700">{created.url}</p>
        <div className="mt-4">
          <SecretReveal
            secret={created.secret}
            doneLabel="I have saved the secret"
            onDone={() => router.push(portal.href(`/webhooks/${encodeURIComponent(created.id)}`))}
          />
        </div>
      </Card>
    );
  }

  return (
    <>
      <EndpointFormCard
        title="Add a webhook endpoint"
        submitLabel="Add endpoint"
        idPrefix="new-endpoint"
        defaultValues={{ url: '', events: [PACKAGE_SORTING_EVENT], description: '' }}
        beforeSend={(body) => {
          const same = existing.find((endpoint) => sameUrl(endpoint.url, body.url));
          if (!same) return Promise.resolve(true);
          setDuplicateOf(same);
          return new Promise<boolean>((resolve) => (answer.current = resolve));
        }}
        send={(body) => portal.fetch<TWebhookEndpointWithSecret>('/portal-api/webhooks', { body })}
        onSaved={(result) => {
          setCreated(result);
          void queryClient.invalidateQueries({ queryKey: portal.key('webhooks') });
        }}
        onCancel={onClose}
      />
      <ConfirmDialog
        open={duplicateOf !== null}
        title="This URL already has an endpoint"
        confirmLabel="Add it again"
        cancelLabel="Don't add"
        onConfirm={() => decide(true)}
        onClose={() => decide(false)}
      >
        <p>
          <span className="break-all font-mono">{duplicateOf?.url}</span> already receives {duplicateOf?.events.join(', ')}
          {duplicateOf?.enabled ? '' : ' (disabled now)'}. A second endpoint gets its own secret, and any event both subscribe to
          is sent twice.
        </p>
      </ConfirmDialog>
    </>
  );
}
