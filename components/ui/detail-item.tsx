import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * One label and value of a detail page's summary `<dl>`; an empty value reads as a light dash, and on a phone
 * (below 640 px) the empty item is left out, so that a detail page is not mostly dashes.
 */
export function DetailItem({ label, value }: { label: string; value: ReactNode }) {
  const empty = value === null || value === undefined || value === '';
  return (
    <div className={cn('min-w-0', empty && 'max-sm:hidden')} data-empty={empty ? 'true' : undefined}>
      <dt className="text-slate-600">{label}</dt>
      <dd className="break-words font-medium text-slate-900">
        {empty ? <span className="font-normal text-slate-500">—</span> : value}
      </dd>
    </div>
  );
}
