import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { ReturnMade, ReturnOffer } from '@/components/tracking/return-offer';
import { TrackForm } from '@/components/tracking/track-form';
import { TrackingView } from '@/components/tracking/tracking-view';
import { Alert, Card } from '@/components/ui';
import { findTrackedPackage } from '@/lib/tracking/find-tracked-package';
import { publicBranding } from '@/lib/branding/branding';
import { findPublicReturnGrant, offersPublicReturn, returnCookieName } from '@/lib/returns/public-returns';

export const metadata: Metadata = {
  title: { absolute: 'Track a package · Carrier' },
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

// GET /track/{tracking number or carrier barcode}?postal_code=: one live package's status and history, for anyone
// holding its number. Counted per client address by proxy.ts before it renders (429 past the limit). When the shipper
// allows it and the package is out for delivery or delivered, it offers a return (components/tracking/return-offer.tsx).
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
  if (lookup.outcome === 'found') {
    const { tracking, accountId } = lookup;
    const [branding, offer] = await Promise.all([
      publicBranding(accountId),
      returnPart(tracking.carrier_barcode, accountId, tracking.status, query.return),
    ]);
    return (
      <TrackingView tracking={tracking} branding={branding}>
        {offer}
      </TrackingView>
    );
  }
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

/** The return made for this browser (its grant cookie), else the offer when there is one, else nothing. */
async function returnPart(barcode: string, accountId: string, status: string, problem: string | string[] | undefined) {
  const grant = (await cookies()).get(returnCookieName(barcode))?.value;
  const made = grant ? await findPublicReturnGrant({ grant, originalBarcode: barcode }) : undefined;
  if (made) return <ReturnMade barcode={barcode} returnTrackingNumber={made.returnTrackingNumber} />;
  if (!(await offersPublicReturn({ accountId, status, carrierBarcode: barcode }))) return null;
  return <ReturnOffer barcode={barcode} problem={typeof problem === 'string' ? problem : undefined} />;
}
