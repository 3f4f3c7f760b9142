import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { ZWebhookEndpoint } from '@/lib/schemas/webhooks';
import { findWebhookEndpoint } from '@/lib/webhooks/find-webhook-endpoint';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { accountScope, pathParam } from '../context';

export const getWebhookOperation = defineJsonOperation(ZWebhookEndpoint, {
  id: 'getWebhook',
  method: 'GET',
  path: '/webhooks/{id}',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Get a webhook endpoint',
  parameters: [PATH_PARAMETERS.webhookId],
  success: { kind: 'json', status: 200, description: 'The endpoint.' },
  errors: { '404': errorAnswer('No such endpoint in this account and environment.') },
  handler: async (context) => ({
    body: presentWebhookEndpoint(await findWebhookEndpoint({ ...accountScope(context), id: pathParam(context, 'id') })),
  }),
});
