'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import { Button, ConfirmDialog } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';

/** A refusal said plainly: not_closable names what the manifest is; anything else as it comes. */
function refusal(error: unknown): string {
  if (error instanceof PortalError) {
    const current = (error.body as { error?: { current_status?: string } } | null)?.error?.current_status;
    if (error.code === 'not_closable') return `Not closed: this manifest is ${current ?? 'not open'}. ${error.message}`;
    return error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/**
 * "Close manifest" on an open daily manifest, with a confirmation: POSTs `{path}/close` (the same close as the API's
 * POST /manifests/{id}/close) and calls `onChanged` after an answer either way. The dialog stays mounted, so a refusal
 * stays readable after the status reloads.
 */
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
  const portal = usePortalEnvironment();
  const [open, setOpen] = useState(false);
  const close = useMutation({
    mutationFn: () => portal.fetch(`${path}/close`, { method: 'POST', body: {} }),
    onSuccess: () => {
      setOpen(false);
      onChanged();
    },
    onError: () => onChanged(),
  });
  return (
    <>
      {available ? (
        <Button
          variant="primary"
          onClick={() => {
            close.reset();
            setOpen(true);
          }}
        >
          Close manifest
        </Button>
      ) : null}
      <ConfirmDialog
        open={open}
        title="Close this manifest?"
        confirmLabel="Yes, close manifest"
        busy={close.isPending}
        error={close.isError ? refusal(close.error) : undefined}
        onConfirm={() => close.mutate()}
        onClose={() => setOpen(false)}
      >
        It takes no more packages: the next package for {manifestDate} opens a new daily manifest. Its handover document stays as
        it is now, and its packages can no longer be cancelled. Your webhooks get <code>manifest.closed</code>.
      </ConfirmDialog>
    </>
  );
}
