import { deleteWebhookOperation } from '@/lib/api/operations/delete-webhook';
import { getWebhookOperation } from '@/lib/api/operations/get-webhook';
import { updateWebhookOperation } from '@/lib/api/operations/update-webhook';
import { portalOperation } from '@/lib/portal/api-operation';

type Params = { id: string };

// GET /portal-api/webhooks/{id}: as GET /webhooks/{id}.
export const GET = portalOperation<Params>(getWebhookOperation, { permission: 'webhooks:manage' });

// PATCH /portal-api/webhooks/{id}: url, events, description or enabled.
export const PATCH = portalOperation<Params>(updateWebhookOperation, { permission: 'webhooks:manage', audited: true });

// DELETE /portal-api/webhooks/{id}: the endpoint and its delivery log; 204, as the API answers.
export const DELETE = portalOperation<Params>(deleteWebhookOperation, { permission: 'webhooks:manage', audited: true });
