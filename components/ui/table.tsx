import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from './cn';

/** A table that scrolls sideways on narrow screens instead of squashing its columns. */
export function Table({ className, label, ...props }: HTMLAttributes<HTMLTableElement> & { label?: string }) {
  return (
    // A region only when named: an unnamed one is a landmark nobody can tell from the next.
    <div
      className="relative -mx-4 overflow-x-auto sm:mx-0"
      role={label ? 'region' : undefined}
      aria-label={label}
      tabIndex={label ? 0 : undefined}
    >
      <table className={cn('min-w-full divide-y divide-slate-200 text-sm', className)} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th scope="col" className={cn('whitespace-nowrap px-3 py-2 text-left font-semibold text-slate-700', className)} {...props} />
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('whitespace-nowrap px-3 py-2 text-slate-800', className)} {...props} />;
}

export function Tr({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('border-b border-slate-100 last:border-0', className)} {...props} />;
}

/**
 * A list's table in its own bordered box: the table scrolls sideways in a focusable region named `label`,
 * and `footer` (a Pager) sits under it. `busy` while a new page loads over the old one. Below 640 px each row
 * is a card of label and value pairs (globals.css `.list-cards`; cells give their column's name as `data-label`).
 */
export function ListTable({
  label,
  busy,
  head,
  children,
  footer,
  tall,
}: {
  label: string;
  busy?: boolean;
  head: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** A long page of rows scrolls inside its own box, under a sticky header row. */
  tall?: boolean;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={busy}>
      <div
        role="region"
        aria-label={label}
        tabIndex={0}
        className={cn('overflow-x-auto rounded-t-lg', tall && 'max-h-[32rem] overflow-y-auto')}
      >
        <table className="list-cards min-w-full divide-y divide-slate-200 text-sm">
          <thead className={cn('bg-slate-50', tall && 'sticky top-0 z-10')}>
            <tr>{head}</tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}

/** An empty cell's dash, lighter than the values around it. */
export function NoValue() {
  return <span className="text-slate-500">—</span>;
}
