import type { Metadata } from 'next';
import Link from 'next/link';
import { TrackingView } from '@/components/tracking/tracking-view';
import { Alert, Card } from '@/components/ui';
import { findTrackedPackage } from '@/lib/tracking/find-tracked-package';
import { publicBranding } from '@/lib/branding/branding';

export const metadata: Metadata = {
  title: { absolute: 'Test package · Carrier' },
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

// GET /track/test/{carrier barcode}: a test package's page, the `tracking_url` of test packages, so that a shipper's
// integration can follow its own link. It says first and plainly that the package is not a real shipment; a live
// package here is unknown, as a test package is on /track/{id}. Counted per client address by proxy.ts.
export default async function TestTrackPackagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const lookup = await findTrackedPackage({ id, environment: 'test' });
  if (lookup.outcome === 'found')
    return <TrackingView tracking={lookup.tracking} branding={await publicBranding(lookup.accountId)} />;
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Test package</h1>
      <div className="mt-4">
        <Alert tone="warning">
          No test package has this carrier barcode. This page shows test packages only, which are not real shipments.
        </Alert>
      </div>
      <Card className="mt-6">
        <p className="text-sm text-slate-700">
          Waiting for a real parcel?{' '}
          <Link href="/track" className="font-medium text-brand-700 underline">
            Track it here
          </Link>{' '}
          with the number on its label.
        </p>
      </Card>
    </>
  );
}
