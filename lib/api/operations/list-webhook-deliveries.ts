import 'server-only';
import { defineJsonOperation } from '../operation';
import { errorAnswer, PATH_PARAMETERS, queryParameters } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZListWebhookDeliveriesQuery, ZWebhookDeliveryList } from '@/lib/schemas/webhooks';
import { listWebhookDeliveries } from '@/lib/webhooks/list-webhook-deliveries';
import { accountScope, pathParam, queryOf } from '../context';

export const listWebhookDeliveriesOperation = defineJsonOperation(ZWebhookDeliveryList, {
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/webhooks/{id}/deliveries',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'List delivery attempts',
  description: 'Newest first, a page at a time.',
  parameters: [
    PATH_PARAMETERS.webhookId,
    ...queryParameters(ZListWebhookDeliveriesQuery).map((parameter) =>
      parameter.name === 'cursor'
        ? { ...parameter, schema: { type: 'string', description: 'next_cursor of the previous page.' } }
        : parameter,
    ),
  ],
  success: { kind: 'json', status: 200, description: 'A page of attempts.' },
  errors: { '404': errorAnswer('No such endpoint.') },
  handler: async (context) => {
    const query = parseOperation(ZListWebhookDeliveriesQuery, queryOf(context));
    return { body: await listWebhookDeliveries({ ...accountScope(context), id: pathParam(context, 'id'), query }) };
  },
});
