import type { ReactNode } from 'react';
import { Button } from './button';
import { cn } from './cn';

/**
 * The footer of a paged list: what this page shows, then Previous and Next (and any `extra` button before
 * them). Paging itself stays with the list, since its API decides how (server cursors, a trail in the URL).
 */
export function Pager({
  label = 'Pages',
  summary,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  extra,
  className,
}: {
  label?: string;
  summary: ReactNode;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  extra?: ReactNode;
  className?: string;
}) {
  return (
    <nav
      aria-label={label}
      className={cn('flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-4 py-3 text-sm', className)}
    >
      <p className="text-slate-700">{summary}</p>
      <div className="flex flex-wrap gap-2">
        {extra}
        <Button size="sm" variant="secondary" disabled={!hasPrevious} onClick={onPrevious}>
          Previous
        </Button>
        <Button size="sm" variant="secondary" disabled={!hasNext} onClick={onNext}>
          Next
        </Button>
      </div>
    </nav>
  );
}
