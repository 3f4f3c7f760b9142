'use client';
import { useQuery } from '@tanstack/react-query';
import { DetailLoadError } from '@/components/layout/not-in-environment';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { Breadcrumb, Card, CardTitle, CopyButton, DetailItem, LoadingBlock, PageHeader, DateTime } from '@/components/ui';
import { isClientError, PortalError } from '@/lib/portal/fetcher';
import type { TRequestLogEntry, TRequestResource } from '@/lib/schemas/request-log';
import { StatusCode } from './request-list';

const RESOURCE: Record<TRequestResource['type'], { label: string; href?: (id: string) => string }> = {
  manifest: { label: 'Manifest', href: (id) => `/manifests/${encodeURIComponent(id)}` },
  package: { label: 'Package', href: (id) => `/packages/${encodeURIComponent(id)}` },
  webhook_endpoint: { label: 'Webhook endpoint', href: (id) => `/webhooks/${encodeURIComponent(id)}` },
  event: { label: 'Event' },
};

/** A body as sent or answered: JSON indented when it is whole JSON, else as it is. */
function shown(body: string | null): string {
  if (body === null) return '';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Body({ title, part }: { title: string; part: TRequestLogEntry['request'] }) {
  const id = `body-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        <span className="text-xs text-slate-600">
          {part.bytes.toLocaleString('en-US')} bytes{part.truncated ? ' · the first 16 KB shown' : ''}
        </span>
      </div>
      {part.body === null ? (
        <p className="mt-2 text-sm text-slate-600">No body.</p>
      ) : (
        <pre
          tabIndex={0}
          aria-label={`${title} body`}
          className="mt-2 max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded bg-slate-950 p-3 font-mono text-xs text-slate-100"
        >
          {shown(part.body)}
        </pre>
      )}
    </section>
  );
}

/** One request of the log: who sent it, what it sent, what it was answered, and what it made. */
export function RequestDetailView({ requestId }: { requestId: string }) {
  const portal = usePortalEnvironment();
  const request = useQuery({
    queryKey: portal.key('request', requestId),
    queryFn: ({ signal }) => portal.fetch<TRequestLogEntry>(`/portal-api/requests/${encodeURIComponent(requestId)}`, { signal }),
    // A line is written within a second of its answer: a link followed at once from an error may arrive first.
    retry: (count, error) =>
      error instanceof PortalError && error.status === 404 ? count < 3 : !isClientError(error) && count < 2,
    retryDelay: 700,
  });

  if (request.isPending) return <LoadingBlock label="Loading request…" rows={6} />;
  if (request.isError) {
    return (
      <DetailLoadError
        query={request}
        thing="request"
        id={requestId}
        list={{ path: '/logs', label: 'Back to logs' }}
        withHeading
        findable
      />
    );
  }
  const r = request.data;
  return (
    <div className="space-y-6">
      <Breadcrumb parentHref={portal.href('/logs')} parentLabel="Logs" current={r.id} />
      <PageHeader
        title={`${r.method} ${r.path}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusCode status={r.status} />
            {r.error_code ? <span className="font-mono text-sm">{r.error_code}</span> : null}
            <CopyButton value={r.id} label="Copy request ID" />
          </span>
        }
      />
      <Card>
        <CardTitle>Summary</CardTitle>
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <DetailItem label="Request ID" value={<span className="break-all font-mono">{r.id}</span>} />
          <DetailItem label="Time" value={<DateTime value={r.created_at} seconds />} />
          <DetailItem label="Duration" value={`${r.duration_ms} ms`} />
          <DetailItem label="Source" value={r.source === 'api' ? 'API' : 'Portal'} />
          <DetailItem
            label={r.token ? 'Token' : 'User'}
            value={r.token ? `${r.token.name || 'Unnamed'} (${r.token.prefix}…)` : (r.user?.email ?? null)}
          />
          <DetailItem label="Client address" value={r.client_address} />
          <DetailItem label="Query" value={r.query ? <span className="break-all font-mono">?{r.query}</span> : null} />
          <DetailItem label="User agent" value={r.user_agent} />
        </dl>
        {r.resources.length > 0 ? (
          <div className="mt-4 border-t border-slate-200 pt-3 text-sm">
            <h3 className="font-medium text-slate-900">Made or named</h3>
            <ul className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
              {r.resources.map((resource) => {
                const kind = RESOURCE[resource.type];
                return (
                  <li key={`${resource.type}-${resource.id}`}>
                    {kind.label}{' '}
                    {kind.href ? (
                      <PortalLink
                        href={kind.href(resource.id)}
                        className="break-all font-mono text-brand-700 underline underline-offset-2"
                      >
                        {resource.id}
                      </PortalLink>
                    ) : (
                      <span className="break-all font-mono">{resource.id}</span>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        ) : null}
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Body title="Request" part={r.request} />
        <Body title="Response" part={r.response} />
      </div>
    </div>
  );
}
