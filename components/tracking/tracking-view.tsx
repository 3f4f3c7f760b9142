import type { ReactNode } from 'react';
import { StatusBadge } from '@/components/lifecycle/status-badge';
import { Card, DetailItem } from '@/components/ui';
import type { TPublicTracking } from '@/lib/schemas/public-tracking';
import { LocalTime } from './local-time';

// The public page's view of one package: where it is, when it should arrive, and what happened, newest first.

const STEPS = [
  { status: 'manifested', label: 'Label created' },
  { status: 'received', label: 'With the carrier' },
  { status: 'in_transit', label: 'In transit' },
  { status: 'out_for_delivery', label: 'Out for delivery' },
  { status: 'delivered', label: 'Delivered' },
] as const;

// An exception happens on the way: the progress shows how far the package had come.
function reached(tracking: TPublicTracking): number {
  const moves = tracking.events.map((e) => STEPS.findIndex((s) => s.status === e.status));
  return Math.max(0, ...moves);
}

const day = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });

function place(destination: TPublicTracking['destination']): string | null {
  if (!destination) return null;
  return [destination.city, destination.state, destination.country].filter(Boolean).join(', ') || null;
}

function Headline({ tracking }: { tracking: TPublicTracking }) {
  if (tracking.delivered_at) {
    return (
      <p className="text-2xl font-semibold text-slate-900">
        Delivered <LocalTime iso={tracking.delivered_at} />
      </p>
    );
  }
  if (tracking.status === 'cancelled') return <p className="text-2xl font-semibold text-slate-900">Cancelled</p>;
  if (tracking.status === 'out_for_delivery') {
    return (
      <p className="text-2xl font-semibold text-slate-900">
        Out for delivery
        <span className="block text-sm font-medium text-slate-600">Arriving today</span>
      </p>
    );
  }
  if (tracking.estimated_delivery) {
    return (
      <p className="text-2xl font-semibold text-slate-900">
        <span className="block text-sm font-medium text-slate-600">Estimated delivery</span>
        {day.format(new Date(`${tracking.estimated_delivery}T00:00:00Z`))}
      </p>
    );
  }
  return <p className="text-2xl font-semibold text-slate-900">{tracking.status_description.split(':')[0]}</p>;
}

function Progress({ tracking }: { tracking: TPublicTracking }) {
  if (tracking.status === 'cancelled') return null;
  const at = reached(tracking);
  const held = tracking.status === 'exception';
  return (
    <div className="mt-6">
      <ol aria-label="Progress" className="grid grid-cols-5 gap-1 text-xs">
        {STEPS.map((step, index) => {
          const done = index <= at;
          const current = index === at;
          return (
            <li key={step.status} aria-current={current ? 'step' : undefined} className="flex flex-col gap-2">
              <span
                aria-hidden="true"
                className={`h-2 rounded-full ${done ? (held && current ? 'bg-amber-500' : 'bg-brand-600') : 'bg-slate-200'}`}
              />
              <span className={`max-sm:sr-only ${current ? 'font-semibold text-slate-900' : 'text-slate-600'}`}>
                {step.label}
                {done && !current ? <span className="sr-only"> (done)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
      <p aria-hidden="true" className="mt-2 text-sm font-medium text-slate-900 sm:hidden">
        Step {at + 1} of {STEPS.length}: {STEPS[at]?.label}
        {held ? ' (held up)' : ''}
      </p>
    </div>
  );
}

/** The shipper's branding (lib/branding): its accent colour, the text colour that reads on it, its logo as a data: URL. */
export interface TrackingBranding {
  accent: string | null;
  onAccent: string;
  logo: string | null;
}

function ShipperBand({ branding, shipper }: { branding: TrackingBranding; shipper: string | null }) {
  if (!branding.accent && !branding.logo) return null;
  return (
    <div
      data-testid="shipper-branding"
      className="flex min-h-14 items-center gap-4 rounded-lg border border-slate-200 px-4 py-3"
      style={branding.accent ? { backgroundColor: branding.accent, color: branding.onAccent } : undefined}
    >
      {branding.logo ? (
        // A data: URL of bytes checked on upload (lib/branding/logo.ts): next/image would only pass it through.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={branding.logo}
          alt={shipper ? `${shipper} logo` : 'Shipper logo'}
          className="h-10 w-auto max-w-[12rem] object-contain"
        />
      ) : null}
      {shipper ? <p className="min-w-0 break-words text-sm font-medium">A shipment from {shipper}</p> : null}
    </div>
  );
}

/** On the test page: said first, and plainly, so that nobody takes a shipper's rehearsal for their parcel. */
function TestNotice() {
  return (
    <div role="note" className="rounded-lg border-2 border-amber-400 bg-amber-50 px-4 py-3 text-amber-950">
      <p className="text-base font-semibold">Test package: this is not a real shipment</p>
      <p className="mt-1 text-sm">
        A shipper made this package to try out its connection to the carrier. Nothing is on its way: the status below comes from
        the shipper&apos;s tests.
      </p>
    </div>
  );
}

export function TrackingView({
  tracking,
  branding,
  children,
}: {
  tracking: TPublicTracking;
  branding?: TrackingBranding;
  /** Below the status card: the return offer, when the page makes one. */
  children?: ReactNode;
}) {
  const events = [...tracking.events].reverse();
  return (
    <div className="space-y-6">
      {tracking.environment === 'test' ? <TestNotice /> : null}
      {branding ? <ShipperBand branding={branding} shipper={tracking.shipper} /> : null}
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h1 className="text-sm font-medium text-slate-600">
              {tracking.tracking_number ? 'Tracking number ' : 'Carrier barcode '}
              <span className="break-all font-mono text-slate-900">{tracking.tracking_number ?? tracking.carrier_barcode}</span>
            </h1>
            <div className="mt-2">
              <Headline tracking={tracking} />
            </div>
          </div>
          <StatusBadge status={tracking.status} />
        </div>
        {tracking.status === 'exception' ? (
          <p role="status" className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            Something is holding this package up, and the carrier is working on it. The estimate may change.
          </p>
        ) : null}
        <Progress tracking={tracking} />
        <dl className="mt-6 grid grid-cols-1 gap-4 border-t border-slate-200 pt-4 text-sm sm:grid-cols-3">
          <DetailItem label="From" value={tracking.shipper} />
          <DetailItem label="To" value={place(tracking.destination)} />
          <DetailItem label="Service" value={tracking.service} />
          {tracking.tracking_number ? (
            <DetailItem label="Carrier barcode" value={<span className="font-mono">{tracking.carrier_barcode}</span>} />
          ) : null}
          <DetailItem label="Last update" value={<LocalTime iso={tracking.status_updated_at} />} />
        </dl>
      </Card>
      {children}
      <section aria-labelledby="history-title">
        <h2 id="history-title" className="text-base font-semibold text-slate-900">
          History
        </h2>
        <ol className="mt-3 space-y-0 border-l-2 border-slate-200 pl-5">
          {events.map((event, index) => (
            <li key={`${event.occurred_at}-${index}`} className="relative pb-5 last:pb-0">
              <span
                aria-hidden="true"
                className={`absolute -left-[27px] top-1.5 h-3 w-3 rounded-full ring-4 ring-slate-50 ${index === 0 ? 'bg-brand-600' : 'bg-slate-400'}`}
              />
              <p className="text-sm font-medium text-slate-900">{event.description}</p>
              <p className="text-sm text-slate-600">
                <LocalTime iso={event.occurred_at} />
                {event.location ? <span> · {event.location}</span> : null}
              </p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
