import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, EXAMPLE_ID, PATH_PARAMETERS, pathParameter } from '../openapi/parts';
import { ZWebhookRedelivery } from '@/lib/schemas/webhooks';
import { redeliverMessage } from '@/lib/webhooks/redeliver-message';
import { accountScope, pathParam } from '../context';

export const redeliverWebhookOperation = defineJsonOperation(ZWebhookRedelivery, {
  id: 'redeliverWebhook',
  method: 'POST',
  path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Redeliver a message now',
  description:
    'The same body and `webhook-id` as before, signed again with a fresh `webhook-timestamp` (and the secrets that sign now).',
  parameters: [
    PATH_PARAMETERS.webhookId,
    pathParameter(
      'deliveryId',
      'A delivery (`att_…`) or message id (`msg_…`, the `webhook-id` of its deliveries).',
      EXAMPLE_ID.delivery,
    ),
  ],
  success: { kind: 'json', status: 202, description: 'Queued for delivery.' },
  errors: {
    '404': errorAnswer('No such endpoint or delivery.'),
    '409': errorAnswer('The endpoint is disabled, or the message is being delivered right now (`conflict`).'),
  },
  handler: async (context) => {
    const result = await redeliverMessage({
      ...accountScope(context),
      id: pathParam(context, 'id'),
      deliveryId: pathParam(context, 'deliveryId'),
    });
    return { status: 202, body: { object: 'webhook_redelivery', message_id: result.messageId, status: result.status } };
  },
});
