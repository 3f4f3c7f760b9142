'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PrintLink } from '@/components/documents/print-links';
import { DetailLoadError } from '@/components/layout/not-in-environment';
import { PortalLink, useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { RoleNote } from '@/components/layout/role';
import { CancelControl, SimulateControl } from '@/components/lifecycle/lifecycle-controls';
import { StatusBadge } from '@/components/lifecycle/status-badge';
import { TypeBadge } from '@/components/manifests/manifest-list';
import {
  Breadcrumb,
  Card,
  CardTitle,
  CopyButton,
  DetailItem,
  ErrorState,
  LoadingBlock,
  PageHeader,
  DateTime,
} from '@/components/ui';
import { CustomsBadge, CustomsDeclaration, isCustomsEvent } from './customs-declaration';
import { offloadable, OffloadControl } from './offload-control';
import { PackageReturns, ProofOfDelivery } from './returns-and-proof';
import { fieldLabel, PackageFields } from './package-fields';
import { PACKAGE_STATUSES } from '@/lib/status/transitions';
import { isClientError } from '@/lib/portal/fetcher';
import type { TEventList, TPackage } from '@/lib/portal/package-list-types';

const SOURCES: Record<string, string> = {
  scan: 'Carrier scan',
  simulator: 'Simulator',
  cancel: 'Cancelled by shipper',
  api: 'API',
};

/** What the package costs, in words: the amount and how it was priced, or why it is not. */
function chargeText(charge: TPackage['charge']): string {
  if (!charge) return 'Not priced (accepted before pricing)';
  if (charge.status === 'unpriced') return `Not priced: ${charge.reason ?? 'no card prices it'}`;
  const how = charge.quote_id ? 'at its quote' : `card version ${charge.card_version ?? '?'}`;
  const adjusted = charge.adjustments?.length ? `, re-rated ${charge.adjustments.length}×` : '';
  return `${charge.amount ?? '—'} ${charge.currency} (${how}${adjusted})${charge.status === 'voided' ? ', voided' : ''}`;
}

export function PackageDetailView({ trackingNumber }: { trackingNumber: string }) {
  const portal = usePortalEnvironment();
  const canWrite = useCan('shipments:write');
  const client = useQueryClient();
  const path = `/portal-api/packages/${encodeURIComponent(trackingNumber)}`;
  const pkg = useQuery({
    queryKey: portal.key('package', trackingNumber),
    queryFn: ({ signal }) => portal.fetch<TPackage>(path, { signal }),
    retry: (count, error) => !isClientError(error) && count < 2,
  });
  const events = useQuery({
    queryKey: portal.key('package-events', trackingNumber),
    queryFn: ({ signal }) => portal.fetch<TEventList>(`${path}/events`, { signal }),
    enabled: pkg.isSuccess,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: portal.key('package', trackingNumber) });
    void client.invalidateQueries({ queryKey: portal.key('package-events', trackingNumber) });
    void client.invalidateQueries({ queryKey: portal.key('packages') });
    // An offload changes its container's readiness and counts, which its manifest page shows.
    const manifestId = pkg.data?.ManifestID;
    if (manifestId) {
      void client.invalidateQueries({ queryKey: portal.key('manifest', manifestId) });
      void client.invalidateQueries({ queryKey: portal.key('manifest-customs', manifestId) });
      void client.invalidateQueries({ queryKey: portal.key('manifest-packages', manifestId) });
    }
  };

  if (pkg.isPending) return <LoadingBlock label="Loading package…" rows={6} />;
  if (pkg.isError) {
    return (
      <DetailLoadError
        query={pkg}
        thing="package"
        id={trackingNumber}
        list={{ path: '/packages', label: 'Back to packages' }}
        withHeading
        findable
      />
    );
  }
  const p = pkg.data;
  return (
    <div className="space-y-6">
      <Breadcrumb parentHref={portal.href('/packages')} parentLabel="Packages" current={trackingNumber} />
      <PageHeader
        title={`Package ${p.TrackingNumber ?? trackingNumber}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StatusBadge status={p.status} /> <TypeBadge type={p.manifest_type} />
            <CopyButton value={p.TrackingNumber ?? trackingNumber} label="Copy tracking number" />
          </span>
        }
        actions={
          <>
            <PrintLink path={`${path}/label`}>Print label</PrintLink>
            <PrintLink path={`${path}/customs-declaration`}>CN 23 declaration</PrintLink>
            <CancelControl
              path={path}
              subject="package"
              available={p.status === 'manifested'}
              detail={`Package ${trackingNumber} is cancelled, with a package.cancelled event, if the carrier has not received it yet.`}
              onChanged={refresh}
            />
            <OffloadControl pkg={p} path={path} onChanged={refresh} />
          </>
        }
      />
      <Card>
        <CardTitle>Summary</CardTitle>
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <DetailItem
            label="Manifest"
            value={
              <PortalLink
                href={`/manifests/${encodeURIComponent(p.ManifestID)}`}
                className="break-all font-mono font-medium text-brand-700 underline"
              >
                {p.ManifestID}
              </PortalLink>
            }
          />
          <DetailItem
            label="Container"
            value={
              p.offloaded_at ? (
                <>
                  {p.ContainerID ?? null} · offloaded <DateTime value={p.offloaded_at} /> (held by customs; the container departs
                  without it)
                </>
              ) : (
                (p.ContainerID ?? null)
              )
            }
          />
          <DetailItem label="House waybill" value={<span className="font-mono">{p.house_waybill}</span>} />
          <DetailItem label="Customs" value={p.customs_status ? <CustomsBadge outcome={p.customs_status} /> : 'No outcome yet'} />
          <DetailItem label="Status since" value={<DateTime value={p.status_updated_at} />} />
          <DetailItem label="Received by us" value={<DateTime value={p.created_at} />} />
          <DetailItem label="Charge" value={chargeText(p.charge)} />
        </dl>
        {canWrite ? null : (
          <RoleNote
            className="mt-3 text-sm text-slate-600"
            what={offloadable(p) ? 'cancel, offload or simulate packages' : 'cancel or simulate packages'}
            permission="shipments:write"
          />
        )}
        {/* A cancelled package has nowhere to go: nothing to simulate. */}
        {portal.environment === 'test' && p.status !== 'cancelled' ? (
          <div className="mt-4">
            <SimulateControl path={path} statuses={PACKAGE_STATUSES.filter((s) => s !== 'manifested')} onChanged={refresh} />
          </div>
        ) : null}
      </Card>
      <PackageReturns pkg={p} path={path} onChanged={refresh} />
      <ProofOfDelivery path={path} status={p.status} />
      <section aria-labelledby="timeline-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="timeline-heading" className="text-base font-semibold text-slate-900">
          Timeline
        </h2>
        {events.isPending ? (
          <LoadingBlock label="Loading events…" rows={3} />
        ) : events.isError ? (
          <ErrorState title="Could not load the timeline" error={events.error} onRetry={() => void events.refetch()} />
        ) : events.data.data.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            Manifested <DateTime value={p.created_at} />; no scans or changes yet.
          </p>
        ) : (
          <ol aria-label="Events" className="mt-3 space-y-0">
            {events.data.data.map((e) => (
              <li key={e.id} className="relative border-l-2 border-slate-200 pb-4 pl-4 last:pb-0">
                <span aria-hidden="true" className="absolute -left-[5px] top-1.5 h-2 w-2 rounded-full bg-brand-600" />
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  {isCustomsEvent(e.type) ? (
                    <CustomsBadge outcome={e.type.slice('customs.'.length)} />
                  ) : e.type === 'package.amended' ? (
                    <span className="font-medium text-slate-900">Amended</span>
                  ) : e.type === 'package.adjusted' ? (
                    <span className="font-medium text-slate-900">Re-rated</span>
                  ) : e.type === 'package.offloaded' ? (
                    <span className="font-medium text-slate-900">Offloaded from its container (held by customs)</span>
                  ) : (
                    <StatusBadge status={e.status} />
                  )}
                  <span className="font-medium text-slate-900">
                    <DateTime value={e.occurred_at} seconds />
                  </span>
                  {e.location ? <span className="text-slate-700">at {e.location}</span> : null}
                  <span className="text-slate-600">{SOURCES[e.source] ?? e.source}</span>
                  {e.applied ? null : <span className="text-amber-800">recorded out of order (status not moved)</span>}
                </div>
                {e.customs && (e.customs.reference || e.customs.text) ? (
                  <p className="mt-1 break-words text-sm text-slate-800">
                    {e.customs.reference ? <span className="font-mono">{e.customs.reference}</span> : null}
                    {e.customs.reference && e.customs.text ? ': ' : null}
                    {e.customs.text}
                  </p>
                ) : null}
                {e.amended_fields?.length ? (
                  <p className="mt-1 break-words text-sm text-slate-700">
                    Changed: {e.amended_fields.map(fieldLabel).join(', ')}
                  </p>
                ) : null}
                {e.adjustment ? (
                  <p className="mt-1 break-words text-sm text-slate-700">
                    Measured {e.adjustment.reason === 'dimensions' ? 'dimensions' : 'weight'} differed: {e.adjustment.before} →{' '}
                    {e.adjustment.after} {e.adjustment.currency} (adjustment {e.adjustment.amount}, card version{' '}
                    {e.adjustment.card_version})
                  </p>
                ) : null}
                {e.exception ? (
                  <p className="mt-1 break-words text-sm text-amber-900">
                    Exception{e.exception.code ? <span className="font-mono"> {e.exception.code}</span> : null}
                    {e.exception.text ? `: ${e.exception.text}` : null}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>
      <CustomsDeclaration declaration={p.Customs} events={events.data?.data ?? []} />
      <PackageFields pkg={p} />
    </div>
  );
}
