import 'server-only';
import { defineOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { deleteWebhookEndpoint } from '@/lib/webhooks/delete-webhook-endpoint';
import { accountScope, pathParam } from '../context';

export const deleteWebhookOperation = defineOperation({
  id: 'deleteWebhook',
  method: 'DELETE',
  path: '/webhooks/{id}',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Delete a webhook endpoint',
  parameters: [PATH_PARAMETERS.webhookId],
  success: { kind: 'empty', status: 204, description: 'Deleted.' },
  errors: { '404': errorAnswer('No such endpoint.') },
  handler: async (context) => {
    await deleteWebhookEndpoint({ ...accountScope(context), id: pathParam(context, 'id'), origin: context.origin });
    return { status: 204 };
  },
});
