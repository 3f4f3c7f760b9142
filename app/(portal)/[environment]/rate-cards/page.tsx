import type { Metadata } from 'next';
import { RateCardsView } from '@/components/rate-cards/rate-cards-view';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Rate cards' };

// GET /{environment}/rate-cards
export default function RateCardsPage() {
  return (
    <>
      <PageHeader
        title="Rate cards"
        description="Price = the table's price for the billable weight and zone, plus surcharges. Billable weight is the greater of actual weight and L×W×H ÷ dim divisor, rounded up to the weight step."
      />
      <RateCardsView />
    </>
  );
}
