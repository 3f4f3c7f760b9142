import type { Metadata } from 'next';
import { WebhookDetailView } from '@/components/webhooks/webhook-detail';

export const metadata: Metadata = { title: 'Webhook endpoint' };

// GET /{environment}/webhooks/{id}: an endpoint, its actions and its delivery log.
export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WebhookDetailView id={id} />;
}
