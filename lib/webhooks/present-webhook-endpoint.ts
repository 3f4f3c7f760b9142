import type { WebhookEndpoint } from '@/lib/generated/prisma/client';
import { WEBHOOK_EVENTS, type TWebhookEndpoint, type WebhookEvent } from '@/lib/schemas/webhooks';

/** Columns a response may show: never the secret (create and rotate add it themselves). */
export const PUBLIC_ENDPOINT_FIELDS = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type PublicEndpoint = Pick<WebhookEndpoint, keyof typeof PUBLIC_ENDPOINT_FIELDS>;

const isWebhookEvent = (name: string): name is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(name);

/** The API's JSON for an endpoint (and the portal's, which calls the same operations): snake_case, like Stripe. */
export function presentWebhookEndpoint(endpoint: PublicEndpoint): TWebhookEndpoint {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    description: endpoint.description,
    // Stored only after ZCreateWebhookRequest/ZUpdateWebhookRequest checked them; the filter narrows the column's type.
    events: endpoint.events.filter(isWebhookEvent),
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}
