import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { TrackForm } from '@/components/tracking/track-form';
import { Card } from '@/components/ui';

export const metadata: Metadata = {
  title: { absolute: 'Track a package · Carrier' },
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : '');

// GET /track: the lookup form; with ?number= (the form sent), on to /track/{number}, where the lookup is counted and made.
export default async function TrackPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const number = one(query.number);
  const postalCode = one(query.postal_code);
  // Only what could be a number goes on: anything else could be no package, and is said so here without a lookup.
  const plausible = /^[A-Za-z0-9._-]{1,64}$/.test(number);
  if (plausible) {
    const rest = postalCode ? `?${new URLSearchParams({ postal_code: postalCode.slice(0, 16) })}` : '';
    redirect(`/track/${encodeURIComponent(number)}${rest}`);
  }
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Track a package</h1>
      <p className="mt-1 text-sm text-slate-600">
        Enter the tracking number and the postal code it is going to, or the carrier barcode (CB…) printed on the label.
      </p>
      <Card className="mt-6">
        <TrackForm
          number={number.slice(0, 64)}
          postalCode={postalCode.slice(0, 16)}
          error={number ? 'No package matches this number. Check it against the label.' : undefined}
        />
      </Card>
    </>
  );
}
