'use client';
import { useState, type ReactNode } from 'react';
import { Button } from './button';

/**
 * A button that asks once more in place: `label` turns into `confirmLabel` (focused) and Cancel, for an action
 * one row or panel can undo nothing of (revoke a token or an invitation, sign out everywhere). `error` stays beside
 * the confirmation, where the action was asked for.
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
  error?: ReactNode;
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
      {error}
    </span>
  );
}
