import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { RequestDetailView } from '@/components/logs/request-detail';

export const metadata: Metadata = { title: 'Request' };

// GET /{environment}/logs/{id}: one request of the log, both bodies, and what it made.
export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <RoleGate permission="logs:read" title="Request" what="read the request log">
      <RequestDetailView requestId={id} />
    </RoleGate>
  );
}
