import type { Metadata } from 'next';
import { TrackForm } from '@/components/tracking/track-form';
import { TrackingView } from '@/components/tracking/tracking-view';
import { Alert, Card } from '@/components/ui';
import { findTrackedPackage } from '@/lib/tracking/find-tracked-package';
import { publicBranding } from '@/lib/branding/branding';

export const metadata: Metadata = {
  title: { absolute: 'Track a package · Carrier' },
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

// GET /track/{tracking number or carrier barcode}?postal_code=: one live package's status and history, for anyone
// holding its number. Counted per client address by proxy.ts before it renders (429 past the limit).
export default async function TrackPackagePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const query = await searchParams;
  const postalCode = typeof query.postal_code === 'string' ? query.postal_code : '';
  const lookup = await findTrackedPackage({ id, postalCode });
  if (lookup.outcome === 'found')
    return <TrackingView tracking={lookup.tracking} branding={await publicBranding(lookup.accountId)} />;
  const message = {
    needs_postal_code: 'Enter the postal code this package is going to: a tracking number alone could be another shipper’s.',
    not_found:
      'No package matches this number and postal code. Check both against the label, or use the carrier barcode (CB…) printed on it.',
    ambiguous:
      'More than one package has this tracking number and postal code. Use the carrier barcode (CB…) printed on the label instead.',
  }[lookup.outcome];
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Track a package</h1>
      <div className="mt-4">
        <Alert tone={lookup.outcome === 'needs_postal_code' ? 'info' : 'warning'}>{message}</Alert>
      </div>
      <Card className="mt-6">
        <TrackForm number={id.slice(0, 64)} postalCode={postalCode.slice(0, 16)} />
      </Card>
    </>
  );
}
