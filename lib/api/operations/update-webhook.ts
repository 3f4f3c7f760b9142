import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, errorAnswer, PATH_PARAMETERS, ref } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZUpdateWebhookRequest, ZWebhookEndpoint } from '@/lib/schemas/webhooks';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { updateWebhookEndpoint } from '@/lib/webhooks/update-webhook-endpoint';
import { accountScope, pathParam } from '../context';

export const updateWebhookOperation = defineJsonOperation(ZWebhookEndpoint, {
  id: 'updateWebhook',
  method: 'PATCH',
  path: '/webhooks/{id}',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Update a webhook endpoint',
  parameters: [PATH_PARAMETERS.webhookId],
  requestBody: {
    required: true,
    content: { 'application/json': { schema: ref('UpdateWebhookRequest'), example: { enabled: false } } },
  },
  success: { kind: 'json', status: 200, description: 'The updated endpoint.' },
  errors: { '404': errorAnswer('No such endpoint.'), '422': BODY_ERRORS['422']! },
  handler: async (context) => {
    const request = parseOperation(ZUpdateWebhookRequest, await context.json());
    const endpoint = await updateWebhookEndpoint({
      ...accountScope(context),
      id: pathParam(context, 'id'),
      request,
      origin: context.origin,
    });
    return { body: presentWebhookEndpoint(endpoint) };
  },
});
