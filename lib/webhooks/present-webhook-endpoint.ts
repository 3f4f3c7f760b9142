import type { WebhookEndpoint } from '@/lib/generated/prisma/client';

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

/** The API's JSON for an endpoint: snake_case, like Stripe. */
export function presentWebhookEndpoint(endpoint: PublicEndpoint) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}
