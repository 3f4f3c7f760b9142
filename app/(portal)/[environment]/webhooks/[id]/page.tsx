import type { Metadata } from 'next';
import { RoleGate } from '@/components/layout/role-gate';
import { WebhookDetailView } from '@/components/webhooks/webhook-detail';

export const metadata: Metadata = { title: 'Webhook endpoint' };

// GET /{environment}/webhooks/{id}: an endpoint, its actions and its delivery log.
export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <RoleGate permission="webhooks:manage" title="Webhook endpoint" what="manage webhook endpoints">
      <WebhookDetailView id={id} />
    </RoleGate>
  );
}
