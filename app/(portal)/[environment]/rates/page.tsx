import type { Metadata } from 'next';
import { RateCalculator } from '@/components/rates/rate-calculator';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Rates' };

// GET /{environment}/rates: the rate calculator.
export default function RatesPage() {
  return (
    <>
      <PageHeader title="Rate calculator" description="Prices come from the same rate cards and code as POST /wf/rate." />
      <RateCalculator />
    </>
  );
}
