'use client';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useCan, usePortalEnvironment } from '@/components/layout/portal-context';
import { Button, ConfirmDialog, Field, Input, RequestLink, Select } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
import { statusLabel } from './status-badge';

/** The 409 the API answers once the carrier has taken possession, said plainly; other errors as they come. */
function refusal(error: unknown): string {
  if (error instanceof PortalError) {
    const current = (error.body as { error?: { current_status?: string } } | null)?.error?.current_status;
    if (error.code === 'not_cancellable') {
      return `Not cancellable: ${current ? `it is ${statusLabel(current).toLowerCase()}, and ` : ''}the carrier has taken possession. ${error.message}`;
    }
    return error.message;
  }
  return errorText(error);
}

/** A refusal's text: the API's message, or what a thrown error says. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/**
 * A lifecycle action behind a confirmation dialog (cancel, close, offload): the button shows while `available`; confirming
 * POSTs `{path}/{action}` and calls `onChanged` after an answer either way (a refusal means the status changed under
 * this page: a scan arrived). The dialog stays mounted, so a refusal stays readable after the status has reloaded.
 */
export function ConfirmedAction({
  path,
  action,
  label,
  confirmLabel,
  cancelLabel,
  title,
  variant,
  refusal,
  available,
  onChanged,
  children,
}: {
  path: string;
  action: 'cancel' | 'close' | 'offload';
  label: string;
  confirmLabel: string;
  cancelLabel?: string;
  title: string;
  variant: 'danger' | 'primary';
  refusal: (error: unknown) => string;
  available: boolean;
  onChanged: () => void;
  children: React.ReactNode;
}) {
  const portal = usePortalEnvironment();
  // A role without shipments:write is not offered the action (the page says so once: RoleNote).
  const allowed = useCan('shipments:write');
  const [open, setOpen] = useState(false);
  // A double click lands before the pending state re-renders the button disabled: one request only.
  const sending = useRef(false);
  const mutation = useMutation({
    mutationFn: () => portal.fetch(`${path}/${action}`, { method: 'POST', body: {} }),
    onSuccess: () => {
      setOpen(false);
      onChanged();
    },
    onError: () => onChanged(),
    onSettled: () => {
      sending.current = false;
    },
  });
  return (
    <>
      {available && allowed ? (
        <Button
          variant={variant}
          onClick={() => {
            mutation.reset();
            setOpen(true);
          }}
        >
          {label}
        </Button>
      ) : null}
      <ConfirmDialog
        open={open}
        title={title}
        confirmLabel={confirmLabel}
        cancelLabel={cancelLabel}
        busy={mutation.isPending}
        error={
          mutation.isError ? (
            <>
              {refusal(mutation.error)}
              <RequestLink error={mutation.error} />
            </>
          ) : undefined
        }
        onConfirm={() => {
          if (sending.current) return;
          sending.current = true;
          mutation.mutate();
        }}
        onClose={() => setOpen(false)}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}

/** "Cancel …" with a confirmation dialog (POST `{path}/cancel`). */
export function CancelControl({
  path,
  subject,
  detail,
  available,
  onChanged,
}: {
  path: string;
  subject: string;
  detail: string;
  available: boolean;
  onChanged: () => void;
}) {
  return (
    <ConfirmedAction
      path={path}
      action="cancel"
      label={`Cancel ${subject}`}
      title={`Cancel ${subject}?`}
      confirmLabel={`Yes, cancel ${subject}`}
      variant="danger"
      refusal={refusal}
      available={available}
      onChanged={onChanged}
    >
      {detail} This cannot be undone; a cancelled tracking number is never used again.
    </ConfirmedAction>
  );
}

/** Test mode only: walks the subject to a target status through every step, each an event and its webhook. */
export function SimulateControl({
  path,
  statuses,
  onChanged,
}: {
  path: string;
  statuses: readonly string[];
  onChanged: () => void;
}) {
  const portal = usePortalEnvironment();
  const [target, setTarget] = useState(statuses[0] ?? '');
  const [code, setCode] = useState('');
  const allowed = useCan('shipments:write');
  const simulate = useMutation({
    mutationFn: () =>
      portal.fetch(`${path}/simulate`, {
        method: 'POST',
        body: { status: target, ...(code.trim() ? { code: code.trim() } : {}) },
      }),
    onSettled: () => onChanged(),
  });
  if (portal.environment !== 'test' || !allowed) return null;
  function submit(event: FormEvent) {
    event.preventDefault();
    simulate.mutate();
  }
  return (
    <form onSubmit={submit} aria-label="Simulate" className="rounded-md border border-dashed border-brand-300 bg-brand-50/40 p-3">
      <p className="text-sm font-medium text-slate-900">Simulate (test mode)</p>
      <p className="text-xs text-slate-600">Plays every step up to the status you pick, with its events and webhooks.</p>
      <div className="mt-2 flex flex-wrap items-end gap-2">
        <Field label="Target status" className="min-w-[10rem] flex-1 sm:max-w-xs">
          <Select value={target} onChange={(e) => setTarget(e.target.value)}>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </Select>
        </Field>
        {target === 'exception' ? (
          <Field label="Exception code" className="min-w-[8rem] flex-1 sm:max-w-xs">
            <Input value={code} maxLength={64} onChange={(e) => setCode(e.target.value)} placeholder="simulated" />
          </Field>
        ) : null}
        <Button type="submit" variant="secondary" loading={simulate.isPending}>
          Simulate
        </Button>
      </div>
      {simulate.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {refusal(simulate.error)}
          <RequestLink error={simulate.error} className="mt-0.5 block text-xs" />
        </p>
      ) : simulate.isSuccess ? (
        <p role="status" className="mt-2 text-sm text-green-800">
          Simulated up to {statusLabel(target).toLowerCase()}.
        </p>
      ) : null}
    </form>
  );
}
