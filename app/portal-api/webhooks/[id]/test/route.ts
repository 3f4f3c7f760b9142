import { testWebhookOperation } from '@/lib/api/operations/test-webhook';
import { portalOperation } from '@/lib/portal/api-operation';

// POST /portal-api/webhooks/{id}/test: queue a test package.sorting event for this endpoint (202).
export const POST = portalOperation<{ id: string }>(testWebhookOperation, { permission: 'webhooks:manage' });
