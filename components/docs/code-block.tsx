'use client';

import { useSyncExternalStore } from 'react';
import { CopyButton } from '@/components/ui';
import { ORIGIN_STAND_IN } from './page-origin';

const noSubscription = () => () => undefined;

/** The text with the stand-in origin replaced by the page's, once in the browser (the server's render keeps the stand-in). */
export function usePageOrigin(text: string): string {
  return useSyncExternalStore(
    noSubscription,
    () => text.replaceAll(ORIGIN_STAND_IN, window.location.origin),
    () => text,
  );
}

export function PageOrigin() {
  return <>{usePageOrigin(ORIGIN_STAND_IN)}</>;
}

/** `of` names what the block belongs to, so that each scrollable region's name is unique on the page. */
export function CodeBlock({ code, label, of }: { code: string; label: string; of: string }) {
  const text = usePageOrigin(code);
  return (
    <div className="overflow-hidden rounded-md bg-slate-900">
      <div className="flex items-center justify-between gap-2 border-b border-slate-700 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-300">{label}</span>
        <CopyButton value={text} label={`Copy ${label}`} />
      </div>
      <pre
        className="overflow-x-auto p-4 text-xs leading-relaxed text-slate-100"
        tabIndex={0}
        role="region"
        aria-label={`${label}, ${of}`}
      >
        <code>{text}</code>
      </pre>
    </div>
  );
}
