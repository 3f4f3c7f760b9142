import 'server-only';
import type { Operation, OperationContext } from '../types';
import { parseOperation } from '@/lib/schemas/parse';
import { decodedPairs, queryObject } from '../query';
import { AppError } from '@/lib/errors/app-error';
import {
  ZCreateWebhookRequest,
  ZListWebhookDeliveriesQuery,
  ZRotateWebhookSecretRequest,
  ZUpdateWebhookRequest,
  type TRotatedWebhookEndpoint,
  type TWebhookDeliveryList,
  type TWebhookEndpoint,
  type TWebhookEndpointList,
  type TWebhookEndpointWithSecret,
  type TWebhookRedelivery,
  type TWebhookTest,
} from '@/lib/schemas/webhooks';
import { createWebhookEndpoint } from '@/lib/webhooks/create-webhook-endpoint';
import { deleteWebhookEndpoint } from '@/lib/webhooks/delete-webhook-endpoint';
import { findWebhookEndpoint } from '@/lib/webhooks/find-webhook-endpoint';
import { listWebhookDeliveries } from '@/lib/webhooks/list-webhook-deliveries';
import { listWebhookEndpoints } from '@/lib/webhooks/list-webhook-endpoints';
import { presentWebhookEndpoint } from '@/lib/webhooks/present-webhook-endpoint';
import { redeliverMessage } from '@/lib/webhooks/redeliver-message';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';
import { sendTestEvent } from '@/lib/webhooks/send-test-event';
import { updateWebhookEndpoint } from '@/lib/webhooks/update-webhook-endpoint';

// Thin operations over lib/webhooks: parse, call one function, shape the response. Every lookup is
// scoped by the token's account and the path's environment; another's endpoint is a plain 404.

/** A path parameter of the route this operation is mounted on (lib/http/routes.ts); its absence is a wiring mistake. */
function pathParam(context: OperationContext, name: string): string {
  const value = context.params[name];
  if (value === undefined) throw new Error(`This operation's route has no :${name} parameter.`);
  return value;
}

function scope(context: OperationContext) {
  return { accountId: context.auth.accountId, environment: context.environment, id: pathParam(context, 'id') };
}

// GET /webhooks: the account's endpoints in this environment (never their secrets).
export const listWebhooksOperation: Operation<TWebhookEndpointList> = async (context) => {
  const endpoints = await listWebhookEndpoints({ accountId: context.auth.accountId, environment: context.environment });
  return { body: { object: 'list', data: endpoints.map(presentWebhookEndpoint), has_more: false } };
};

// POST /webhooks: register an endpoint; the response carries its secret, shown this once.
export const createWebhookOperation: Operation<TWebhookEndpointWithSecret> = async (context) => {
  const request = parseOperation(ZCreateWebhookRequest, await context.json());
  const { endpoint, secret } = await createWebhookEndpoint({
    accountId: context.auth.accountId,
    environment: context.environment,
    request,
    origin: context.origin,
  });
  return { status: 201, body: { ...presentWebhookEndpoint(endpoint), secret } };
};

// GET /webhooks/:id
export const getWebhookOperation: Operation<TWebhookEndpoint> = async (context) => {
  return { body: presentWebhookEndpoint(await findWebhookEndpoint(scope(context))) };
};

// PATCH /webhooks/:id: url, events, description, enabled.
export const updateWebhookOperation: Operation<TWebhookEndpoint> = async (context) => {
  const request = parseOperation(ZUpdateWebhookRequest, await context.json());
  return { body: presentWebhookEndpoint(await updateWebhookEndpoint({ ...scope(context), request, origin: context.origin })) };
};

// DELETE /webhooks/:id
export const deleteWebhookOperation: Operation<never> = async (context) => {
  await deleteWebhookEndpoint({ ...scope(context), origin: context.origin });
  return { status: 204 };
};

// POST /webhooks/:id/rotate-secret: a new secret, shown this once; the old one keeps signing for
// grace_period_seconds (body optional; 24 h by default, 0 = stops at once).
export const rotateWebhookSecretOperation: Operation<TRotatedWebhookEndpoint> = async (context) => {
  const request = parseOperation(ZRotateWebhookSecretRequest, await optionalJson(context));
  const rotated = await rotateWebhookSecret({
    ...scope(context),
    gracePeriodSeconds: request.gracePeriodSeconds,
    origin: context.origin,
  });
  return { body: presentRotation(rotated) };
};

/** The rotate answer: the endpoint, its new secret, and when the old one stops signing. */
function presentRotation(rotated: Awaited<ReturnType<typeof rotateWebhookSecret>>): TRotatedWebhookEndpoint {
  return {
    ...presentWebhookEndpoint(rotated.endpoint),
    secret: rotated.secret,
    previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

/** A body that may be left out: an empty one reads as {} (the pipeline's json() refuses it). */
async function optionalJson(context: OperationContext): Promise<unknown> {
  try {
    return await context.json();
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_json' && /body is empty/.test(error.message)) return {};
    throw error;
  }
}

// POST /webhooks/:id/test: queue a test package.sorting event for this endpoint.
export const testWebhookOperation: Operation<TWebhookTest> = async (context) => {
  const { eventId, messageId } = await sendTestEvent(scope(context));
  return { status: 202, body: { object: 'webhook_test', event_id: eventId, message_id: messageId, status: 'pending' } };
};

// GET /webhooks/:id/deliveries?limit=&cursor=&outcome=: the attempt log, newest first. A parameter given twice is a
// 422 naming it (the lists' one query reader), not the last of the two.
export const listWebhookDeliveriesOperation: Operation<TWebhookDeliveryList> = async (context) => {
  const query = parseOperation(ZListWebhookDeliveriesQuery, queryObject(decodedPairs(context.search)));
  return { body: await listWebhookDeliveries({ ...scope(context), query }) };
};

// POST /webhooks/:id/deliveries/:deliveryId/redeliver: send that message again now.
export const redeliverWebhookOperation: Operation<TWebhookRedelivery> = async (context) => {
  const result = await redeliverMessage({ ...scope(context), deliveryId: pathParam(context, 'deliveryId') });
  return { status: 202, body: { object: 'webhook_redelivery', message_id: result.messageId, status: result.status } };
};
