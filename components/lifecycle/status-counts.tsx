import { PortalLink } from '@/components/layout/portal-context';
import { cn } from '@/components/ui';
import { PACKAGE_STATUSES } from '@/lib/status/transitions';
import { StatusBadge } from './status-badge';

const order = (status: string) => PACKAGE_STATUSES.findIndex((known) => known === status);

/** Packages counted by status, in lifecycle order; each count links (`href`) to the Packages page filtered by it. */
export function StatusCounts({
  counts,
  href,
  className,
}: {
  counts: Record<string, number>;
  href: (status: string) => string;
  className?: string;
}) {
  const entries = Object.entries(counts).sort(([a], [b]) => order(a) - order(b));
  return (
    <ul aria-label="Packages by status" className={cn('flex flex-wrap gap-2', className)}>
      {entries.map(([status, n]) => (
        <li key={status}>
          <PortalLink
            href={href(status)}
            className="inline-flex items-center gap-2 rounded-md border border-slate-200 px-2 py-1 text-sm hover:bg-slate-50"
          >
            <StatusBadge status={status} /> <span className="tabular-nums font-medium text-slate-900">{n.toLocaleString()}</span>
          </PortalLink>
        </li>
      ))}
    </ul>
  );
}
