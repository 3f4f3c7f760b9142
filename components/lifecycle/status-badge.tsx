import { Badge } from '@/components/ui';

const TONES: Record<string, 'neutral' | 'success' | 'warning' | 'danger' | 'info'> = {
  manifested: 'neutral',
  received: 'info',
  in_transit: 'info',
  departed: 'info',
  arrived: 'info',
  out_for_delivery: 'info',
  delivered: 'success',
  closed: 'success',
  exception: 'warning',
  cancelled: 'danger',
};

export function statusLabel(status: string): string {
  const text = status.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A package's, container's or manifest's lifecycle status. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={TONES[status] ?? 'neutral'} className="whitespace-nowrap">
      <span data-status={status}>{statusLabel(status)}</span>
    </Badge>
  );
}
