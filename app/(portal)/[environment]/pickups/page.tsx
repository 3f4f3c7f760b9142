import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { PickupsView } from '@/components/pickups/pickups-view';
import { PageHeader } from '@/components/ui';

export const metadata: Metadata = { title: 'Pickups' };

// GET /{environment}/pickups[?manifest=MAN-…]: schedule the carrier's collection of a manifest, and the pickups so far.
export default function PickupsPage() {
  return (
    <RoleGate permission="data:read" title="Pickups" what="see pickups">
      <PageHeader
        title="Pickups"
        description="Ask a driver to collect a manifest's packages within a window; cancel before it opens."
      />
      <PickupsView />
    </RoleGate>
  );
}
