'use client';
import { ConfirmedAction, errorText } from '@/components/lifecycle/lifecycle-controls';
import { PortalError } from '@/lib/portal/fetcher';

/** A refusal said plainly: not_closable names what the manifest is; anything else as it comes. */
function refusal(error: unknown): string {
  if (error instanceof PortalError) {
    const current = (error.body as { error?: { current_status?: string } } | null)?.error?.current_status;
    if (error.code === 'not_closable') return `Not closed: this manifest is ${current ?? 'not open'}. ${error.message}`;
    return error.message;
  }
  return errorText(error);
}

/** "Close manifest" on an open daily manifest, with a confirmation (the API's POST /manifests/{id}/close). */
export function CloseManifestControl({
  path,
  manifestDate,
  available,
  onChanged,
}: {
  path: string;
  manifestDate: string;
  available: boolean;
  onChanged: () => void;
}) {
  return (
    <ConfirmedAction
      path={path}
      action="close"
      label="Close manifest"
      title="Close this manifest?"
      confirmLabel="Yes, close manifest"
      variant="primary"
      refusal={refusal}
      available={available}
      onChanged={onChanged}
    >
      It takes no more packages: the next package for {manifestDate} opens a new daily manifest. Its handover document stays as it
      is now, and its packages can no longer be cancelled. Your webhooks get <code>manifest.closed</code>.
    </ConfirmedAction>
  );
}
