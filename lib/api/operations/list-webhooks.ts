import 'server-only';
import { defineJsonOperation } from '../operation';
import { ZWebhookEndpointList } from '@/lib/schemas/webhooks';
import { listWebhookEndpoints } from '@/lib/webhooks/list-webhook-endpoints';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { accountScope } from '../context';

export const listWebhooksOperation = defineJsonOperation(ZWebhookEndpointList, {
  id: 'listWebhooks',
  method: 'GET',
  path: '/webhooks',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'List webhook endpoints',
  success: { kind: 'json', status: 200, description: 'The endpoints of this account and environment.' },
  handler: async (context) => {
    // Never their secrets: those are shown once, when made or rotated.
    const endpoints = await listWebhookEndpoints(accountScope(context));
    return { body: { object: 'list', data: endpoints.map(presentWebhookEndpoint), has_more: false } };
  },
});
