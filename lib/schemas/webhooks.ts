import { z } from 'zod';
import { integer, oneOf, text } from './fields';
import { refuseUnknownFields } from './unknown-fields';
import { textRuleViolation } from './text-rule';

// Webhook endpoints: the API (lib/http/operations/webhooks.ts) and the portal's forms share these.
// Only syntax is checked here; whether a URL may be reached (SSRF guard) is the server's check.

/** The one event today: a package manifest was accepted. */
export const PACKAGE_SORTING_EVENT = 'package.sorting';
/** The lifecycle's events (issue 13, lib/lifecycle): a package, container or manifest changed status. */
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
  'container.cancelled',
  'manifest.cancelled',
  // Close-out (issue 15, lib/close-out): a daily manifest was closed, by its shipper or at the cut-off.
  'manifest.closed',
] as const;
export const WEBHOOK_EVENTS = [PACKAGE_SORTING_EVENT, ...LIFECYCLE_WEBHOOK_EVENTS] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_URL_MAX = 2_048;
/** Event names per endpoint: there is one event today; room for repeats and future names, no more. */
export const WEBHOOK_EVENTS_MAX = 20;
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

// POST /api/1.1/webhooks
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

export type TUpdateWebhookRequestInput = Partial<TCreateWebhookRequestInput> & { enabled?: boolean };
export type TUpdateWebhookRequest = z.output<typeof ZUpdateWebhookRequest>;

export const DELIVERIES_PAGE_MAX = 100;

// GET /api/1.1/webhooks/{id}/deliveries?limit=&cursor=: newest attempt first.
export const ZListWebhookDeliveriesQuery = z.object({
  limit: integer({ min: 1, max: DELIVERIES_PAGE_MAX }),
  /** Only the attempts that succeeded (2xx) or only those that did not. */
  outcome: oneOf(['succeeded', 'failed'] as const),
  cursor: z
    .unknown()
    .transform((value, ctx): string | undefined => {
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string' || !/^att_\d{1,18}$/.test(value))
        return fail(ctx, 'must be a next_cursor value from a previous page');
      return value;
    })
    .optional(),
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

export type TRotateWebhookSecretRequestInput = { grace_period_seconds?: number };
export type TRotateWebhookSecretRequest = z.output<typeof ZRotateWebhookSecretRequest>;
