'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { Alert, Badge, Button, Card, CardTitle, EmptyState, ErrorState, FocusOnMount, LoadingBlock } from '@/components/ui';
import {
  PACKAGE_SORTING_EVENT,
  type TWebhookEndpoint,
  type TWebhookEndpointList,
  type TWebhookEndpointWithSecret,
} from '@/lib/schemas/webhooks';
import { EndpointFormCard } from './endpoint-fields';
import { SecretReveal } from './secret-reveal';

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

  return (
    <div className="space-y-4">
      {deleted ? <Alert tone="success">Endpoint deleted.</Alert> : null}
      {creating ? (
        <CreateWebhookForm onClose={() => setCreating(false)} />
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
                    <p className="mt-1 text-sm text-red-800">{endpoint.disabled_reason}</p>
                  ) : null}
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

function CreateWebhookForm({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const portal = usePortalEnvironment();
  const [created, setCreated] = useState<TWebhookEndpointWithSecret | null>(null);

  if (created) {
    return (
      <Card>
        <FocusOnMount>
          <CardTitle>Endpoint added</CardTitle>
        </FocusOnMount>
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
    <EndpointFormCard
      title="Add a webhook endpoint"
      submitLabel="Add endpoint"
      idPrefix="new-endpoint"
      defaultValues={{ url: '', events: [PACKAGE_SORTING_EVENT], description: '' }}
      send={(body) => portal.fetch<TWebhookEndpointWithSecret>('/portal-api/webhooks', { body })}
      onSaved={(result) => {
        setCreated(result);
        void queryClient.invalidateQueries({ queryKey: portal.key('webhooks') });
      }}
      onCancel={onClose}
    />
  );
}
