import { createWebhookOperation } from '@/lib/api/operations/create-webhook';
import { listWebhooksOperation } from '@/lib/api/operations/list-webhooks';
import { portalOperation } from '@/lib/portal/api-operation';

// The portal's webhook routes run the API's own operations (GET/POST /webhooks): one shape for the resource.

// GET /portal-api/webhooks: the account's endpoints in the selected environment, as {object: 'list', data, has_more}.
export const GET = portalOperation(listWebhooksOperation, { permission: 'webhooks:manage' });

// POST /portal-api/webhooks: register an endpoint; 201 with the endpoint and its signing secret, shown only here.
export const POST = portalOperation(createWebhookOperation, { permission: 'webhooks:manage', audited: true });
