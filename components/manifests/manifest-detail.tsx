'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ManifestPrintLinks } from '@/components/documents/print-links';
import { DetailLoadError } from '@/components/layout/not-in-environment';
import { PortalLink, useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Breadcrumb,
  buttonClass,
  Card,
  CardTitle,
  CopyButton,
  DetailItem,
  ErrorState,
  LoadingBlock,
  PageHeader,
  Pager,
  DateTime,
} from '@/components/ui';
import { ENVIRONMENT_QUERY } from '@/lib/portal/paths';
import type { TManifest, TPackageList } from '@/lib/portal/package-list-types';
import {
  PackageTable,
  POSTAL_CODE_COLUMN,
  STATUS_COLUMN,
  text,
  TRACKING_COLUMN,
  weight,
  type PackageColumn,
} from '@/components/packages/package-table';
import { CustomsReadiness } from './customs-readiness';
import { AmendHeader } from './amend-header';
import { HEADER_GROUPS, headerValue } from './header-fields';
import { ManifestLifecycle } from './manifest-lifecycle';
import { TypeBadge, manifestDay } from './manifest-list';

const PAGE_SIZE = 100;

/**
 * A container or daily manifest: GET /manifests/{id}'s answer (the API's shape: the container's header fields, its
 * counts by status and totals), its lifecycle controls, and its packages a page at a time.
 */
export function ManifestDetailView({ id }: { id: string }) {
  const portal = usePortalEnvironment();
  const canSchedule = useCan('shipments:write');
  const manifest = useQuery({
    queryKey: portal.key('manifest', id),
    queryFn: ({ signal }) => portal.fetch<TManifest>(`/portal-api/manifests/${encodeURIComponent(id)}`, { signal }),
  });

  if (manifest.isPending) return <LoadingBlock label="Loading manifest…" rows={6} />;
  if (manifest.isError) {
    return (
      <DetailLoadError
        query={manifest}
        thing="manifest"
        id={id}
        list={{ path: '/manifests', label: 'Back to manifests' }}
        withHeading
        findable
      />
    );
  }
  const m = manifest.data;
  const container = m.type === 'container';
  const day = manifestDay(m);
  return (
    <div className="space-y-6">
      <Breadcrumb parentHref={portal.href('/manifests')} parentLabel="Manifests" current={m.ManifestID} />
      <PageHeader
        title={container ? `Container ${m.ContainerID ?? ''}` : `Daily manifest ${day ?? ''}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <TypeBadge type={m.type} /> <span className="font-mono">{m.ManifestID}</span>{' '}
            <CopyButton value={m.ManifestID} label="Copy ID" />
          </span>
        }
        actions={
          <>
            <ManifestPrintLinks id={m.ManifestID} container={container} />
            <a
              // A download link cannot send a header: the environment goes in the query (GET only).
              href={`/portal-api/manifests/${encodeURIComponent(m.ManifestID)}/export?${ENVIRONMENT_QUERY}=${portal.environment}`}
              download={`${m.ManifestID}-packages.csv`}
              className={buttonClass({ variant: 'secondary' })}
            >
              Export packages (CSV)
            </a>
            {canSchedule && m.status !== 'cancelled' ? (
              <PortalLink
                href={`/pickups?manifest=${encodeURIComponent(m.ManifestID)}`}
                className={buttonClass({ variant: 'secondary' })}
              >
                Schedule a pickup
              </PortalLink>
            ) : null}
          </>
        }
      />
      <Card>
        <CardTitle>Summary</CardTitle>
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <DetailItem
            label="Manifest date"
            value={day === null ? null : `${day}${m.manifest_date_defaulted ? ' (defaulted to the day received)' : ''}`}
          />
          <DetailItem label="Service" value={m.services.join(', ') || null} />
          <DetailItem label="Packages" value={m.PackageCount.toLocaleString()} />
          <DetailItem label="Created" value={<DateTime value={m.created_at} />} />
        </dl>
      </Card>
      <ManifestLifecycle manifest={m} />
      <CustomsReadiness id={m.ManifestID} container={container} cancelled={m.status === 'cancelled'} />
      {container ? <AmendHeader manifest={m} /> : null}
      {container ? (
        <div className="grid gap-4 lg:grid-cols-2">
          {HEADER_GROUPS.map((group) => (
            <Card key={group.title}>
              <CardTitle>{group.title}</CardTitle>
              <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
                {group.fields.map((f) => (
                  <DetailItem key={f.name} label={f.label} value={formatHeaderValue(headerValue(m, f.name))} />
                ))}
              </dl>
            </Card>
          ))}
        </div>
      ) : null}
      <PackagesTable id={m.ManifestID} count={m.PackageCount} />
    </div>
  );
}

function formatHeaderValue(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  // Numbers and booleans read the same as JSON; an object would otherwise read "[object Object]".
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A manifest's table: who and where first, so the postal code shows without scrolling sideways at desktop width. */
const MANIFEST_PACKAGE_COLUMNS: PackageColumn[] = [
  TRACKING_COLUMN,
  STATUS_COLUMN,
  { heading: 'Recipient', cell: (p) => text(p.ToName) },
  { heading: 'City', cell: (p) => text(p.ToCity) },
  POSTAL_CODE_COLUMN,
  { heading: 'Country', cell: (p) => text(p.ToCountry) },
  { heading: 'Weight', cell: (p) => weight(p), className: 'text-right tabular-nums' },
  { heading: 'Carrier barcode', cell: (p) => <span className="font-mono text-slate-700">{p.carrier_barcode}</span> },
];

/** The manifest's packages in its order (GET /manifests/{id}/packages), a keyset page at a time, numbered from 1. */
function PackagesTable({ id, count }: { id: string; count: number }) {
  const portal = usePortalEnvironment();
  // Keyset pages: the cursor of every page visited so far (the first page has none), so Previous
  // goes back without an offset.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const offset = cursors.length * PAGE_SIZE;
  const page = useQuery({
    queryKey: portal.key('manifest-packages', id, cursor ?? ''),
    queryFn: ({ signal }) =>
      portal.fetch<TPackageList>(
        `/portal-api/manifests/${encodeURIComponent(id)}/packages?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: count > 0,
  });
  return (
    <section aria-labelledby="packages-heading" className="space-y-3">
      <h2 id="packages-heading" className="text-base font-semibold text-slate-900">
        Packages
      </h2>
      {count === 0 ? (
        <p className="text-sm text-slate-600">This manifest has no packages.</p>
      ) : page.isPending ? (
        <LoadingBlock label="Loading packages…" rows={5} />
      ) : page.isError ? (
        <ErrorState title="Could not load packages" error={page.error} onRetry={() => void page.refetch()} />
      ) : (
        <PackageTable
          // A new page starts at its top.
          key={offset}
          tall
          label={`Packages ${offset + 1} to ${offset + page.data.data.length}`}
          busy={page.isFetching}
          rows={page.data.data}
          columns={MANIFEST_PACKAGE_COLUMNS}
          numberFrom={offset + 1}
          footer={
            <Pager
              label="Package pages"
              className="sm:px-6"
              summary={`${offset + 1}–${offset + page.data.data.length} of ${count.toLocaleString()}`}
              hasPrevious={cursors.length > 0}
              onPrevious={() => setCursors((c) => c.slice(0, -1))}
              hasNext={page.data.has_more && !!page.data.next_cursor}
              onNext={() => {
                const next = page.data.next_cursor;
                if (next) setCursors((c) => [...c, next]);
              }}
            />
          }
        />
      )}
    </section>
  );
}
