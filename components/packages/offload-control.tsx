'use client';
import { ConfirmedAction, errorText } from '@/components/lifecycle/lifecycle-controls';
import { PortalError } from '@/lib/portal/fetcher';
import type { TPackage } from '@/lib/portal/package-list-types';

/** The customs outcomes that hold a house on the ground, so the API lets it be offloaded (lib/customs/offload-package.ts). */
const HOLDING_OUTCOMES = new Set(['do_not_load', 'information_requested', 'screening_requested']);

/**
 * Whether an offload can succeed now: a container's house, held by customs, not offloaded yet, while its container is on
 * the ground. A house moves with its container, so its own status stands for the container's.
 */
export function offloadable(p: TPackage): boolean {
  return (
    p.manifest_type === 'container' &&
    !p.offloaded_at &&
    p.customs_status !== null &&
    HOLDING_OUTCOMES.has(p.customs_status) &&
    (p.status === 'manifested' || p.status === 'received')
  );
}

/** 409 not_offloadable (the container left, or customs no longer holds the house): the API's message says which. */
function refusal(error: unknown): string {
  if (error instanceof PortalError && error.code === 'not_offloadable') return `Not offloaded: ${error.message}`;
  return errorText(error);
}

/** "Offload from container" (POST `{path}/offload`), behind a dialog that says what it does. */
export function OffloadControl({ pkg, path, onChanged }: { pkg: TPackage; path: string; onChanged: () => void }) {
  return (
    <ConfirmedAction
      path={path}
      action="offload"
      label="Offload from container"
      title="Offload this package from its container?"
      confirmLabel="Yes, offload it"
      cancelLabel="Keep it in the container"
      // Not red beside "Cancel package": the house is kept, only taken off this flight (the dialog's confirm is red).
      variant="primary"
      refusal={refusal}
      available={offloadable(pkg)}
      onChanged={onChanged}
    >
      <p>
        Customs holds package {pkg.TrackingNumber ?? pkg.house_waybill}. Offloading takes it out of container{' '}
        {pkg.ContainerID ?? pkg.ManifestID}: the rest of the container departs without it, and it stays on the ground with you,
        the shipper, with its customs outcome unchanged.
      </p>
      <p className="mt-2">Its timeline records the offload. It cannot be put back into this container.</p>
    </ConfirmedAction>
  );
}
