import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS } from '../openapi/parts';
import { ZWebhookTest } from '@/lib/schemas/webhooks';
import { sendTestEvent } from '@/lib/webhooks/send-test-event';
import { accountScope, pathParam } from '../context';

export const testWebhookOperation = defineJsonOperation(ZWebhookTest, {
  id: 'testWebhook',
  method: 'POST',
  path: '/webhooks/{id}/test',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Send a test event',
  description:
    'Queues a `package.sorting` event with sample values for this endpoint alone. Its delivery carries the headers every delivery does ' +
    '(`x-carrier-event`, `webhook-id`, `webhook-timestamp`, `webhook-signature`) and `x-carrier-test-event: true`.',
  parameters: [PATH_PARAMETERS.webhookId],
  success: { kind: 'json', status: 202, description: 'Queued.' },
  errors: {
    '404': errorAnswer('No such endpoint.'),
    '409': errorAnswer('The endpoint is disabled, or not subscribed to `package.sorting` (`conflict`).'),
  },
  handler: async (context) => {
    const { eventId, messageId } = await sendTestEvent({ ...accountScope(context), id: pathParam(context, 'id') });
    return { status: 202, body: { object: 'webhook_test', event_id: eventId, message_id: messageId, status: 'pending' } };
  },
});
