'use client';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Takes focus when it appears (and again when `focusKey` changes): what a submit produced, a refusal or a
 * result, so that focus does not drop to <body> when the button that had it is disabled or replaced.
 */
export function FocusOnMount({ children, focusKey, className }: { children: ReactNode; focusKey?: unknown; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [focusKey]);
  return (
    <div ref={ref} tabIndex={-1} className={className ?? 'focus:outline-none'}>
      {children}
    </div>
  );
}
