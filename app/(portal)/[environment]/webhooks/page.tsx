import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { PageHeader } from '@/components/ui';
import { WebhookListView } from '@/components/webhooks/webhook-list';

export const metadata: Metadata = { title: 'Webhooks' };

// GET /{environment}/webhooks: the account's webhook endpoints in the selected environment.
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const { deleted } = await searchParams;
  return (
    <RoleGate permission="webhooks:manage" title="Webhooks" what="manage webhook endpoints">
      <PageHeader
        title="Webhooks"
        description="Endpoints notified of your packages' and containers' events (the types are listed below), signed per the Standard Webhooks spec."
      />
      <WebhookListView deleted={deleted === '1'} />
    </RoleGate>
  );
}
