import type { z } from 'zod';
import { jsonSchemaOf, ref, type Json } from './parts';
import { LIFECYCLE_WEBHOOK_EVENTS, ZLifecycleWebhookPayload, ZPackageAdjustedPayload } from '@/lib/schemas/lifecycle';
import { PACKAGE_ADJUSTED_EVENT } from '@/lib/schemas/webhooks';

// The lifecycle webhooks of the OpenAPI document (lib/api/openapi/document.ts spreads them in), generated from
// the payload schema the deliveries are built from.

const output = (schema: z.ZodType) => jsonSchemaOf(schema, 'output');

export function lifecycleWebhooks(): Json {
  return {
    ...Object.fromEntries(
      LIFECYCLE_WEBHOOK_EVENTS.map((event) => [
        event,
        {
          post: {
            operationId: `on${event
              .split(/[._]/)
              .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
              .join('')}`,
            summary: `${event}`,
            description:
              `Sent when a ${event.split('.')[0]} reaches \`${event.split('.')[1]}\`, signed and retried as package.sorting is. ` +
              `Its signed body names the event as \`type\` (\`${event}\`), as the \`x-carrier-event\` header does.` +
              (event === 'manifest.closed'
                ? ' Also carries `package_count`, `document_path` (the API path of its handover document) and `closed_by` (`shipper` or `cutoff`).'
                : ''),
            requestBody: { required: true, content: { 'application/json': { schema: ref('LifecycleWebhookPayload') } } },
            responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
          },
        },
      ]),
    ),
    [PACKAGE_ADJUSTED_EVENT]: {
      post: {
        operationId: 'onPackageAdjusted',
        summary: PACKAGE_ADJUSTED_EVENT,
        description:
          "Sent when a package is re-rated on what the hub measured at `received` (a carrier scan's `measured`, or the test simulator's) and its charge changes: " +
          '`adjustment` holds `before`, `after`, `amount` (after − before, negative for a credit), `reason` (`weight` or `dimensions`), the `scan_id` and the card version, ' +
          "the same version that priced it. Once per scan; in order with the package's other events, `type` in the signed body.",
        requestBody: { required: true, content: { 'application/json': { schema: ref('PackageAdjustedPayload') } } },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery.' } },
      },
    },
  };
}

export function lifecycleSchemas(): Json {
  return {
    LifecycleWebhookPayload: withEventType(output(ZLifecycleWebhookPayload)),
    PackageAdjustedPayload: withEventType(output(ZPackageAdjustedPayload)),
  };
}

/** `type` first and required in every lifecycle delivery body, as deliver-message.ts signs it, whatever the schema lists. */
function withEventType(json: Json): Json {
  const { type: _type, ...rest } = (json.properties ?? {}) as Record<string, Json>;
  const required = ((json.required ?? []) as string[]).filter((name) => name !== 'type');
  return {
    ...json,
    properties: {
      type: {
        type: 'string',
        description: "The event's name, the same as the `x-carrier-event` header: `package.delivered`, `manifest.closed`, …",
      },
      ...rest,
    },
    required: ['type', ...required],
  };
}
