import { jsonSchemaOf, pathParameter, ref, type Json } from './parts';
import { ZPickupEventPayload } from '@/lib/schemas/pickups';
import { PICKUP_WEBHOOK_EVENTS } from '@/lib/schemas/webhooks';

// The pickup webhooks of the OpenAPI document (document.ts spreads them in), from the payload schema lib/pickups builds.

const WHEN: Record<(typeof PICKUP_WEBHOOK_EVENTS)[number], string> = {
  'pickup.scheduled': 'Sent when a pickup is scheduled (POST /pickups).',
  'pickup.cancelled': 'Sent when the shipper cancels a pickup before its window opens.',
  'pickup.completed': 'Sent when the driver has collected the packages (on the test path: POST /pickups/{id}/simulate).',
};

export function pickupWebhooks(): Json {
  return Object.fromEntries(
    PICKUP_WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `onPickup${event.charAt(7).toUpperCase()}${event.slice(8)}`,
          summary: event,
          description: `${WHEN[event]} \`type\` names the event; signed and retried as every event is.`,
          requestBody: { required: true, content: { 'application/json': { schema: ref('PickupEventPayload') } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
        },
      },
    ]),
  );
}

export function pickupSchemas(): Json {
  return { PickupEventPayload: jsonSchemaOf(ZPickupEventPayload, 'output') };
}

export const PICKUP_ID_PARAMETER = pathParameter('id', 'Pickup id (`pu_…`).', 'pu_4k2m9x7q1c3v5b8n6z0w2e4r');
