'use client';
import { useState } from 'react';
import { Button } from './button';
import { RequestLink } from './request-link';

/**
 * A button that asks once more in place: `label` turns into `confirmLabel` (focused) and Cancel, for an action
 * one row or panel can undo nothing of (revoke a token or an invitation, sign out everywhere). A failed action's
 * `error` is shown beside the confirmation, where it was asked for, with the link to its request in the log.
 */
export function ConfirmInline({
  label,
  ariaLabel,
  confirmLabel,
  busy,
  error,
  onConfirm,
}: {
  label: string;
  ariaLabel?: string;
  confirmLabel: string;
  busy?: boolean;
  error?: Error | null;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setConfirming(true)} aria-label={ariaLabel}>
        {label}
      </Button>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button variant="danger" size="sm" loading={busy} onClick={onConfirm} autoFocus>
        {confirmLabel}
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
        Cancel
      </Button>
      {error ? (
        // Its own line under the buttons, wrapping: a table cell (whitespace-nowrap) would cut it off on a phone.
        <span role="alert" className="basis-full whitespace-normal text-sm text-red-700">
          {error.message}
          <RequestLink error={error} />
        </span>
      ) : null}
    </span>
  );
}
