import Link from 'next/link';

/** "Parent / current" above a detail page: the parent links back to its list. */
export function Breadcrumb({ parentHref, parentLabel, current }: { parentHref: string; parentLabel: string; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <Link href={parentHref} className="text-brand-700 underline underline-offset-2 hover:text-brand-900">
        {parentLabel}
      </Link>{' '}
      <span aria-hidden="true" className="text-slate-500">
        /
      </span>{' '}
      <span className="font-mono text-slate-700">{current}</span>
    </nav>
  );
}
