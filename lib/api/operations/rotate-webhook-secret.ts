import 'server-only';
import { AppError } from '@/lib/errors/app-error';
import { defineJsonOperation, type OperationContext } from '../operation';
import { BODY_ERRORS, errorAnswer, PATH_PARAMETERS, ref } from '../openapi/parts';
import { parseOperation } from '@/lib/schemas/parse';
import { ZRotatedWebhookEndpoint, ZRotateWebhookSecretRequest } from '@/lib/schemas/webhooks';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';
import { accountScope, pathParam } from '../context';

export const rotateWebhookSecretOperation = defineJsonOperation(ZRotatedWebhookEndpoint, {
  id: 'rotateWebhookSecret',
  method: 'POST',
  path: '/webhooks/{id}/rotate-secret',
  scope: 'webhooks',
  tag: 'Webhooks',
  summary: 'Rotate the signing secret',
  description:
    'The old secret keeps signing beside the new one for `grace_period_seconds` (24 h by default; 0 stops it at once): each delivery carries one `v1,` signature per secret in `webhook-signature`, so receivers verify with either while they deploy the new one. The body may be left out.',
  parameters: [PATH_PARAMETERS.webhookId],
  requestBody: {
    required: false,
    content: { 'application/json': { schema: ref('RotateWebhookSecretRequest'), example: { grace_period_seconds: 3600 } } },
  },
  success: {
    kind: 'json',
    status: 200,
    description: 'The endpoint with its new secret, shown only here, and when the old one stops signing.',
  },
  errors: { '422': BODY_ERRORS['422']!, '404': errorAnswer('No such endpoint.') },
  handler: async (context) => {
    const request = parseOperation(ZRotateWebhookSecretRequest, await optionalJson(context));
    const rotated = await rotateWebhookSecret({
      ...accountScope(context),
      id: pathParam(context, 'id'),
      gracePeriodSeconds: request.gracePeriodSeconds,
      origin: context.origin,
    });
    return {
      body: {
        ...presentWebhookEndpoint(rotated.endpoint),
        secret: rotated.secret,
        previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null,
      },
    };
  },
});

/** A body that may be left out: an empty one reads as {} (the pipeline's json() refuses it). */
async function optionalJson(context: OperationContext): Promise<unknown> {
  try {
    return await context.json();
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_json' && /body is empty/.test(error.message)) return {};
    throw error;
  }
}
