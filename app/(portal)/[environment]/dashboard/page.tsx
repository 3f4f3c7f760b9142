import type { Metadata } from 'next';
import { DashboardView } from '@/components/dashboard/dashboard-view';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Dashboard' };

// GET /{environment}/dashboard
export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="The last 30 days in the selected environment." />
      <DashboardView />
    </>
  );
}
