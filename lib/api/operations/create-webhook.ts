import 'server-only';
import { defineJsonOperation } from '../operation';
import { BODY_ERRORS, ref } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { PACKAGE_SORTING_EVENT, ZCreateWebhookRequest, ZWebhookEndpointWithSecret } from '@/lib/schemas/webhooks';
import { createWebhookEndpoint } from '@/lib/webhooks/create-webhook-endpoint';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { accountScope } from '../context';

export const createWebhookOperation = defineJsonOperation(ZWebhookEndpointWithSecret, {
  id: 'createWebhook',
  method: 'POST',
  path: '/webhooks',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Create a webhook endpoint',
  description:
    'In test and live alike, URLs that resolve to loopback, private, link-local, reserved or metadata addresses are refused, at registration and again at every delivery. ' +
    "Each delivery is a POST of the event's body (see the webhooks), with `x-carrier-event` naming the event and the Standard Webhooks headers " +
    '`webhook-id`, `webhook-timestamp` and `webhook-signature`, signed with the secret this answer shows.',
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: ref('CreateWebhookRequest'),
        example: { url: 'https://example.com/hooks/carrier', events: [PACKAGE_SORTING_EVENT], description: 'Sorting' },
      },
    },
  },
  success: { kind: 'json', status: 201, description: 'Created; the secret is shown only here.' },
  errors: { '422': BODY_ERRORS['422']! },
  handler: async (context) => {
    const request = parseOperation(ZCreateWebhookRequest, await context.json());
    const { endpoint, secret } = await createWebhookEndpoint({ ...accountScope(context), request, origin: context.origin });
    return { status: 201, body: { ...presentWebhookEndpoint(endpoint), secret } };
  },
});
