import type { Metadata } from 'next';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Dashboard' };

export default function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
