'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { RoleNote } from '@/components/layout/role';
import { CancelControl, SimulateControl } from '@/components/lifecycle/lifecycle-controls';
import { StatusBadge } from '@/components/lifecycle/status-badge';
import { StatusCounts } from '@/components/lifecycle/status-counts';
import { Card, CardTitle, DateTime } from '@/components/ui';
import { CONTAINER_STATUSES, PACKAGE_STATUSES } from '@/lib/status/transitions';
import type { TManifest } from '@/lib/portal/package-list-types';
import { CloseManifestControl } from './close-manifest-control';

/**
 * A manifest's status, its packages counted by status (each a link to the filtered Packages page), close, cancel and
 * (test) simulate. `manifest` is the page's GET /manifests/{id} answer; a change reloads it and what lists it.
 */
export function ManifestLifecycle({ manifest: m }: { manifest: TManifest }) {
  const portal = usePortalEnvironment();
  const client = useQueryClient();
  const id = m.ManifestID;
  const path = `/portal-api/manifests/${encodeURIComponent(id)}`;
  const refresh = () => {
    void client.invalidateQueries({ queryKey: portal.key('manifest', id) });
    void client.invalidateQueries({ queryKey: portal.key('manifests') });
    void client.invalidateQueries({ queryKey: portal.key('manifest-packages', id) });
    void client.invalidateQueries({ queryKey: portal.key('packages') });
  };
  const counts = m.totals?.by_status ?? {};
  const container = m.type === 'container';
  const canWrite = useCan('shipments:write');
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>Status</CardTitle>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <StatusBadge status={m.status} /> since <DateTime value={m.status_updated_at} />
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {container ? null : (
            <CloseManifestControl
              path={path}
              manifestDate={String(m.ManifestDate ?? '')}
              available={m.status === 'manifested'}
              onChanged={refresh}
            />
          )}
          <CancelControl
            available={m.status === 'manifested'}
            path={path}
            subject={container ? 'container' : 'manifest'}
            detail={
              container
                ? 'The container and all its packages are cancelled, if the carrier has none of them yet.'
                : 'Every package of this daily manifest that the carrier has not received yet is cancelled.'
            }
            onChanged={refresh}
          />
        </div>
      </div>
      {m.status === 'closed' && !container ? (
        <p className="mt-3 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Closed: this manifest takes no more packages, and its handover document no longer changes. New packages for{' '}
          {String(m.ManifestDate ?? '')} go to a new daily manifest.
        </p>
      ) : null}
      {canWrite ? null : (
        <RoleNote
          className="mt-3 text-sm text-slate-600"
          what="close, cancel or simulate manifests"
          permission="shipments:write"
        />
      )}
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Packages by status</h3>
      {Object.keys(counts).length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No packages.</p>
      ) : (
        <StatusCounts
          className="mt-2"
          counts={counts}
          href={(s) => `/packages?manifest_id=${encodeURIComponent(m.ManifestID)}&status=${encodeURIComponent(s)}`}
        />
      )}
      {/* A cancelled manifest has nowhere to go: nothing to simulate. */}
      {portal.environment === 'test' && m.status !== 'cancelled' ? (
        <div className="mt-4">
          <SimulateControl
            path={path}
            statuses={(container ? CONTAINER_STATUSES : PACKAGE_STATUSES).filter((s) => s !== 'manifested')}
            onChanged={refresh}
          />
        </div>
      ) : null}
    </Card>
  );
}
