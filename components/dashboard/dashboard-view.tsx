'use client';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { PortalLink, usePortalEnvironment } from '@/components/layout/portal-context';
import { Badge, Card, CardTitle, EmptyState, ErrorState, LoadingBlock, DateTime } from '@/components/ui';
import { StatusCounts } from '@/components/lifecycle/status-counts';
import type { TDashboardResponse } from '@/lib/schemas/portal-responses';

/** Every count on the dashboard with thousands separators: 13,660, not 13660. */
const count = (n: number) => n.toLocaleString('en-US');

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card>
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-semibold text-slate-900">{value}</p>
      {hint ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
    </Card>
  );
}

/** Every package of the window, container and daily, by status; each count opens the Packages page filtered by it. */
function PackagesByStatus({ counts, total }: { counts: TDashboardResponse['packagesByStatus']; total: number }) {
  return (
    <Card>
      <CardTitle>Packages by status, last 30 days</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        <span className="font-semibold tabular-nums text-slate-900" data-testid="packages-all">
          {count(total)}
        </span>{' '}
        packages in containers and daily manifests.
      </p>
      <StatusCounts className="mt-3" counts={counts} href={(status) => `/packages?status=${status}`} />
    </Card>
  );
}

function ActivityChart({ daily }: { daily: TDashboardResponse['daily'] }) {
  const data = daily.map((d) => ({ ...d, label: d.day.slice(5) }));
  return (
    <figure data-testid="activity-chart">
      <div className="h-64 w-full" aria-hidden="true" inert>
        <ResponsiveContainer width="100%" height="100%">
          {/* Thirty days of two bars: narrow gaps, or at 390 px each bar is a 2 px line. */}
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} barCategoryGap="12%" barGap={1}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: '#475569' }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: '#475569' }} tickFormatter={count} width={56} />
            <Tooltip formatter={(value) => (typeof value === 'number' ? count(value) : value)} />
            <Legend />
            <Bar dataKey="packages" name="Packages" fill="#1d4ed8" />
            <Bar dataKey="manifests" name="Container manifests" fill="#b45309" />
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* The same numbers for screen readers and keyboard users, who cannot read the bars. */}
      <figcaption className="sr-only">
        Packages and container manifests per day:{' '}
        {daily
          .filter((d) => d.packages || d.manifests)
          .map((d) => `${d.day}: ${count(d.packages)} packages, ${count(d.manifests)} manifests`)
          .join('; ') || 'none in the last 30 days'}
      </figcaption>
    </figure>
  );
}

export function DashboardView() {
  const portal = usePortalEnvironment();
  const { environment } = portal;
  const query = useQuery({
    queryKey: portal.key('dashboard'),
    queryFn: ({ signal }) => portal.fetch<TDashboardResponse>('/portal-api/dashboard', { signal }),
  });
  if (query.isPending) return <LoadingBlock label="Loading dashboard…" rows={6} />;
  if (query.isError)
    return <ErrorState title="Could not load the dashboard" error={query.error} onRetry={() => void query.refetch()} />;
  const { daily, totals, webhooks, recent, packagesByStatus } = query.data;
  const rate = webhooks.successRate;
  // Containers' packages too: the by-status counts cover both tables, as the chart's bars do.
  const packagesTotal = Object.values(packagesByStatus).reduce((n, c) => n + c, 0);

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Stat label="Packages, last 30 days" value={count(packagesTotal)} />
        <Stat label="Container manifests, last 30 days" value={count(totals.manifests)} />
        <Stat
          label="Webhook success rate"
          value={rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 ? 0 : 1)}%`}
          hint={
            rate === null
              ? 'No deliveries yet.'
              : `${count(webhooks.succeeded)} of ${count(webhooks.attempts)} attempts got a 2xx.`
          }
        />
      </div>

      <PackagesByStatus counts={packagesByStatus} total={packagesTotal} />

      <Card>
        <CardTitle>Activity per day</CardTitle>
        <div className="mt-4">
          {totals.packages + totals.manifests === 0 ? (
            <EmptyState title={`No ${environment} activity in the last 30 days`}>
              Send a package or a container manifest with a {environment} token and it shows up here.{' '}
              <PortalLink href="/tokens" className="font-medium text-brand-700 underline">
                Create a token
              </PortalLink>
            </EmptyState>
          ) : (
            <ActivityChart daily={daily} />
          )}
        </div>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardTitle>Webhook deliveries</CardTitle>
          <div className="mt-3">
            {rate === null ? (
              <EmptyState title="No webhook deliveries yet">
                Add an endpoint on the{' '}
                <PortalLink href="/webhooks" className="font-medium text-brand-700 underline">
                  Webhooks
                </PortalLink>{' '}
                page to be told when packages are sorted.
              </EmptyState>
            ) : (
              <div>
                <div
                  className="h-3 w-full overflow-hidden rounded-full bg-red-200"
                  role="img"
                  aria-label={`${Math.round(rate * 100)}% of attempts succeeded`}
                >
                  <div className="h-full bg-green-600" style={{ width: `${rate * 100}%` }} />
                </div>
                <p className="mt-2 text-sm text-slate-700">
                  {count(webhooks.succeeded)} succeeded, {count(webhooks.attempts - webhooks.succeeded)} failed in the last 30
                  days.
                </p>
              </div>
            )}
          </div>
        </Card>

        <Card>
          <CardTitle>Recent activity</CardTitle>
          <div className="mt-3">
            {recent.length === 0 ? (
              <EmptyState title="Nothing yet">Manifests and packages you send appear here.</EmptyState>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="recent-activity">
                {recent.map((item) => (
                  <li
                    key={`${item.kind}:${item.id}`}
                    className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between"
                  >
                    <div className="min-w-0">
                      <p className="truncate text-sm font-medium text-slate-900">
                        <Badge tone={item.kind === 'package' ? 'info' : 'neutral'} className="mr-2">
                          {item.kind === 'package' ? 'Package' : 'Manifest'}
                        </Badge>
                        {item.kind === 'container_manifest' ? (
                          <PortalLink href={`/manifests/${encodeURIComponent(item.id)}`} className="underline">
                            {item.label}
                          </PortalLink>
                        ) : (
                          <PortalLink href={`/packages/${encodeURIComponent(item.id)}`} className="underline">
                            {item.label}
                          </PortalLink>
                        )}
                      </p>
                      <p className="truncate text-xs text-slate-600">{item.detail}</p>
                    </div>
                    <time className="shrink-0 text-xs text-slate-600" dateTime={item.createdAt}>
                      <DateTime value={item.createdAt} />
                    </time>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Card>
      </div>
    </div>
  );
}
