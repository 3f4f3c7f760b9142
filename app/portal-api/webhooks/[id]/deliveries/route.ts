import { listWebhookDeliveriesOperation } from '@/lib/api/operations/list-webhook-deliveries';
import { portalOperation } from '@/lib/portal/api-operation';

// GET /portal-api/webhooks/{id}/deliveries?limit&cursor&outcome: every attempt, newest first, as the API answers it.
export const GET = portalOperation<{ id: string }>(listWebhookDeliveriesOperation, { permission: 'webhooks:manage' });
