'use client';
import { useEffect, useRef } from 'react';
import { Alert, Button, CopyButton } from '@/components/ui';

/** A signing secret, shown once: no endpoint ever returns it again. */
export function SecretReveal({ secret, onDone, doneLabel = 'Done' }: { secret: string; onDone: () => void; doneLabel?: string }) {
  // Focus lands on the secret, selected (onFocus), so that the action's result is where the keyboard is.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [secret]);
  return (
    <div className="space-y-3" data-testid="secret-reveal">
      <Alert tone="warning">
        Copy this signing secret now. It is shown only once; if you lose it, rotate the secret to get a new one.
      </Alert>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="webhook-secret" className="sr-only">
          Signing secret
        </label>
        <input
          ref={input}
          id="webhook-secret"
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-slate-400 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
        />
        <CopyButton value={secret} label="Copy secret" />
      </div>
      <Button onClick={onDone}>{doneLabel}</Button>
    </div>
  );
}
