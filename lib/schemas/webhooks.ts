import { z } from 'zod';
import { integer, oneOf, text } from './fields';
import { cursor, keysetList } from './list';
import { refuseUnknownFields, ZWarnings } from './unknown-fields';
import { textRuleViolation } from './text-rule';

// Only syntax is checked here; whether a URL may be reached (SSRF guard) is the server's check.

export const PACKAGE_SORTING_EVENT = 'package.sorting';
export const LIFECYCLE_WEBHOOK_EVENTS = [
  'package.received',
  'package.in_transit',
  'package.out_for_delivery',
  'package.delivered',
  'package.exception',
  'package.cancelled',
  'container.received',
  'container.departed',
  'container.arrived',
  'container.closed',
  'container.cancelled',
  'manifest.cancelled',
  // Close-out (lib/close-out): a daily manifest was closed, by its shipper or at the cut-off.
  'manifest.closed',
] as const;
/** Customs outcomes (customs.<outcome>) and amended house data (package.amended). */
export const CUSTOMS_WEBHOOK_EVENTS = [
  'customs.assessment_complete',
  'customs.information_requested',
  'customs.screening_requested',
  'customs.do_not_load',
  'customs.released',
] as const;
export const PACKAGE_AMENDED_EVENT = 'package.amended';
/** A house held by customs taken out of its container before departure (lib/customs/offload-package.ts). */
export const PACKAGE_OFFLOADED_EVENT = 'package.offloaded';
/** A container's air cargo header amended before departure (lib/customs/amend-container.ts). */
export const CONTAINER_AMENDED_EVENT = 'container.amended';
export const PACKAGE_ADJUSTED_EVENT = 'package.adjusted';
export const INVOICE_CREATED_EVENT = 'invoice.created';
export const PICKUP_WEBHOOK_EVENTS = ['pickup.scheduled', 'pickup.cancelled', 'pickup.completed'] as const;
/** Returns (lib/returns): a return package was made for a delivered or out-for-delivery package. */
export const PACKAGE_RETURN_CREATED_EVENT = 'package.return_created';
export const WEBHOOK_EVENTS = [
  PACKAGE_SORTING_EVENT,
  ...LIFECYCLE_WEBHOOK_EVENTS,
  ...CUSTOMS_WEBHOOK_EVENTS,
  PACKAGE_AMENDED_EVENT,
  PACKAGE_OFFLOADED_EVENT,
  CONTAINER_AMENDED_EVENT,
  PACKAGE_ADJUSTED_EVENT,
  INVOICE_CREATED_EVENT,
  ...PICKUP_WEBHOOK_EVENTS,
  PACKAGE_RETURN_CREATED_EVENT,
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_URL_MAX = 2_048;
/** Event names per endpoint: every event once, with room for repeats and future names, no more. */
export const WEBHOOK_EVENTS_MAX = 40;
export const WEBHOOK_DESCRIPTION_MAX = 255;

type Ctx = z.RefinementCtx;

function fail(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

function webhookUrl() {
  return z.unknown().transform((value, ctx): string => {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
      return fail(ctx, 'is required');
    if (typeof value !== 'string') return fail(ctx, 'must be a string');
    const raw = value.trim();
    if (raw.length > WEBHOOK_URL_MAX) return fail(ctx, `must be at most ${WEBHOOK_URL_MAX} characters`);
    // The URL parser silently drops tabs and line breaks: refuse them here rather than store a different URL.
    const violation = textRuleViolation(raw);
    if (violation) return fail(ctx, violation);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return fail(ctx, 'must be an absolute URL, e.g. https://example.com/webhooks');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(ctx, 'must use https (or http)');
    if (url.username || url.password) return fail(ctx, 'must not contain a user name or password');
    if (url.hash) return fail(ctx, 'must not contain a #fragment');
    return url.toString();
  });
}

function events() {
  return z.unknown().transform((value, ctx): WebhookEvent[] => {
    if (value === undefined || value === null) return fail(ctx, 'is required');
    if (!Array.isArray(value)) return fail(ctx, `must be an array of event names: ${WEBHOOK_EVENTS.join(', ')}`);
    if (value.length === 0) return fail(ctx, 'must name at least one event');
    // Checked before the items, so a huge array costs one error.
    if (value.length > WEBHOOK_EVENTS_MAX)
      return fail(ctx, `must name at most ${WEBHOOK_EVENTS_MAX} events (got ${value.length})`);
    const out = new Set<WebhookEvent>();
    value.forEach((item, index) => {
      if (typeof item === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(item)) out.add(item as WebhookEvent);
      else ctx.addIssue({ code: 'custom', path: [index], message: `must be one of: ${WEBHOOK_EVENTS.join(', ')}` });
    });
    return [...out];
  });
}

function boolean() {
  return z.unknown().transform((value, ctx): boolean => {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    return fail(ctx, 'must be true or false');
  });
}

export const ZCreateWebhookRequest = z
  .looseObject({
    url: webhookUrl(),
    events: events(),
    description: text({ max: WEBHOOK_DESCRIPTION_MAX }),
  })
  .superRefine(refuseUnknownFields(['url', 'events', 'description']), { when: () => true })
  .transform((body) => ({ url: body.url, events: body.events, description: body.description ?? '' }));

export type TCreateWebhookRequestInput = { url: string; events: WebhookEvent[]; description?: string };
export type TCreateWebhookRequest = z.output<typeof ZCreateWebhookRequest>;

// PATCH /api/1.1/webhooks/{id}: any of the fields; enabling clears the reason it was disabled.
export const ZUpdateWebhookRequest = z
  .looseObject({
    url: webhookUrl().optional(),
    events: events().optional(),
    description: z
      .unknown()
      .optional()
      .transform((value, ctx): string | undefined => {
        if (value === undefined) return undefined;
        if (value === null) return '';
        if (typeof value !== 'string') return fail(ctx, 'must be a string');
        if (value.trim().length > WEBHOOK_DESCRIPTION_MAX)
          return fail(ctx, `must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`);
        const violation = textRuleViolation(value);
        if (violation) return fail(ctx, violation);
        return value.trim();
      }),
    enabled: boolean().optional(),
  })
  .superRefine(refuseUnknownFields(['url', 'events', 'description', 'enabled']), { when: () => true })
  .superRefine((body, ctx) => {
    if (body.url === undefined && body.events === undefined && body.description === undefined && body.enabled === undefined) {
      ctx.addIssue({ code: 'custom', message: 'send at least one of: url, events, description, enabled' });
    }
  })
  .transform((body) => ({ url: body.url, events: body.events, description: body.description, enabled: body.enabled }));

export type TUpdateWebhookRequest = z.output<typeof ZUpdateWebhookRequest>;

export const DELIVERIES_PAGE_MAX = 100;

// GET /api/1.1/webhooks/{id}/deliveries?limit=&cursor=: newest attempt first.
export const ZListWebhookDeliveriesQuery = z.object({
  limit: integer({ min: 1, max: DELIVERIES_PAGE_MAX }),
  /** Only the attempts that succeeded (2xx) or only those that did not. */
  outcome: oneOf(['succeeded', 'failed'] as const),
  cursor,
});

export type TListWebhookDeliveriesQuery = z.output<typeof ZListWebhookDeliveriesQuery>;

/** Rotation overlap (lib/webhooks/rotate-webhook-secret.ts): the old secret signs beside the new one this long. */
export const ROTATION_GRACE_DEFAULT_SECONDS = 86_400;
export const ROTATION_GRACE_MAX_SECONDS = 604_800;

// POST /api/1.1/webhooks/{id}/rotate-secret: the body is optional; 0 ends the old secret at once.
export const ZRotateWebhookSecretRequest = z
  .looseObject({ grace_period_seconds: integer({ min: 0, max: ROTATION_GRACE_MAX_SECONDS }) })
  .superRefine(refuseUnknownFields(['grace_period_seconds']), { when: () => true })
  .transform((body) => ({ gracePeriodSeconds: body.grace_period_seconds ?? ROTATION_GRACE_DEFAULT_SECONDS }));

// ---------------------------------------------------------------------------------------------------------------
// Responses, answered by the API and, through the same operations, by the portal.

const dateTime = () => z.string().meta({ format: 'date-time' });

export const ZWebhookEndpoint = z.object({
  id: z.string().meta({ examples: ['we_3k9x2m4t8v6w1z5q7r0y'] }),
  object: z.literal('webhook_endpoint'),
  url: z.string().meta({ format: 'uri' }),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  created_at: dateTime(),
  updated_at: dateTime(),
});

export const ZWebhookEndpointList = z.object({
  object: z.literal('list'),
  data: z.array(ZWebhookEndpoint),
  has_more: z.boolean(),
});

// Intersections rather than .extend(): the document says "a WebhookEndpoint and …" (allOf with its $ref), not a copy.
export const ZWebhookEndpointWithSecret = z.intersection(
  ZWebhookEndpoint,
  z.object({ secret: z.string().meta({ description: 'Signing secret (`whsec_…`), shown only in this response.' }) }),
);

export const ZRotatedWebhookEndpoint = z.intersection(
  ZWebhookEndpointWithSecret,
  z.object({
    previous_secret_expires_at: dateTime()
      .nullable()
      .meta({ description: 'When the replaced secret stops signing; null when it stopped at once.' }),
  }),
);

export const WEBHOOK_MESSAGE_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
export type WebhookMessageStatus = (typeof WEBHOOK_MESSAGE_STATUSES)[number];

export const ZWebhookDelivery = z.object({
  id: z.string().meta({ examples: ['att_42'] }),
  object: z.literal('webhook_delivery'),
  message_id: z.string().meta({ description: 'The `webhook-id` header; stable across retries.' }),
  event_id: z.string(),
  event_type: z.string(),
  test: z.boolean(),
  attempt: z.number().int(),
  attempted_at: dateTime(),
  success: z.boolean(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  request: z
    .object({
      headers: z.record(z.string(), z.string()).meta({ description: 'Every header sent, the signature and timestamp included.' }),
      body: z.string().meta({ description: 'The JSON body sent, its first 16 KB.' }),
      body_bytes: z.number().int().meta({ description: "The whole body's size in bytes." }),
    })
    .nullable()
    .meta({
      description:
        'What the attempt sent; null when nothing was sent (the destination was refused) and for attempts logged before this was recorded.',
    }),
  response_body: z.string().nullable().meta({ description: 'First 2 KB of the response.' }),
  error: z.string().nullable(),
  message_status: z.enum(WEBHOOK_MESSAGE_STATUSES),
  next_attempt_at: dateTime().nullable().meta({ description: 'While the message waits for a retry: when it is due.' }),
});

export const ZWebhookDeliveryList = keysetList(ZWebhookDelivery);

export const ZWebhookTest = z.object({
  object: z.literal('webhook_test'),
  event_id: z.string(),
  message_id: z.string(),
  status: z.literal('pending'),
  // They read no body: one sent is named here (lib/api/operation.ts).
  warnings: ZWarnings,
});

export const ZWebhookRedelivery = z.object({
  object: z.literal('webhook_redelivery'),
  message_id: z.string(),
  status: z.literal('pending'),
  warnings: ZWarnings,
});

// The package.sorting webhook's body, exactly as published: `package_count` equals the length of `tracking_numbers`.
export const ZPackageSortingPayload = z
  .object({
    manifest_id: z.string().meta({ description: 'The daily manifest the package joined.', examples: ['MAN-7K3Q9X2M4T8V6W1Z'] }),
    package_count: z.number().int().meta({ description: 'Equals the length of tracking_numbers.' }),
    tracking_numbers: z.array(z.string()),
  })
  .meta({ example: { manifest_id: 'MAN-7K3Q9X2M4T8V6W1Z', package_count: 1, tracking_numbers: ['1Z999AA10123456784'] } });

export type TWebhookEndpoint = z.output<typeof ZWebhookEndpoint>;
export type TWebhookEndpointList = z.output<typeof ZWebhookEndpointList>;
export type TWebhookEndpointWithSecret = z.output<typeof ZWebhookEndpointWithSecret>;
export type TRotatedWebhookEndpoint = z.output<typeof ZRotatedWebhookEndpoint>;
export type TWebhookDelivery = z.output<typeof ZWebhookDelivery>;
export type TWebhookDeliveryList = z.output<typeof ZWebhookDeliveryList>;
export type TWebhookTest = z.output<typeof ZWebhookTest>;
export type TWebhookRedelivery = z.output<typeof ZWebhookRedelivery>;
export type TPackageSortingPayload = z.output<typeof ZPackageSortingPayload>;
