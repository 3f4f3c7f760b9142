import type { ReactNode } from 'react';

/** One label and value of a detail page's summary `<dl>`; an empty value reads as a light dash. */
export function DetailItem({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="break-words font-medium text-slate-900">
        {value === null || value === undefined || value === '' ? <span className="font-normal text-slate-500">—</span> : value}
      </dd>
    </div>
  );
}
