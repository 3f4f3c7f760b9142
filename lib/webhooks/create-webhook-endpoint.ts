import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { db, lockForTransaction } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { newId } from '@/lib/ids';
import type { TCreateWebhookRequest } from '@/lib/schemas/webhooks';
import { checkEndpointUrl } from './check-endpoint-url';
import { generateWebhookSecret } from './generate-secret';
import { PUBLIC_ENDPOINT_FIELDS } from './present-webhook-endpoint';
import { sealSecret } from './secret-box';
import { webhookSecretsKeyring } from './secrets-keyring';

/** Endpoints per account and environment: each one multiplies every event's deliveries. */
export const MAX_ENDPOINTS = 16;

/** Registers an endpoint; the returned secret is the only time it is shown (it is stored encrypted). */
export async function createWebhookEndpoint(options: {
  accountId: string;
  environment: Environment;
  request: TCreateWebhookRequest;
  origin: AuditOrigin;
}) {
  const { accountId, environment, request } = options;
  await checkEndpointUrl(request.url);
  const secret = generateWebhookSecret();
  const id = newId('we');
  const endpoint = await db.$transaction(async (tx) => {
    // Serialises creations for the account and environment, so the count below sees every endpoint already made.
    await lockForTransaction(tx, `webhook_endpoints:${accountId}:${environment}`);
    const count = await tx.webhookEndpoint.count({ where: { accountId, environment } });
    if (count >= MAX_ENDPOINTS) {
      throw new AppError(
        'conflict',
        `An account may have at most ${MAX_ENDPOINTS} webhook endpoints per environment; delete one first.`,
      );
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        accountId,
        environment,
        url: request.url,
        description: request.description,
        events: request.events,
        secret: sealSecret(webhookSecretsKeyring(), id, secret),
      },
      select: PUBLIC_ENDPOINT_FIELDS,
    });
    await recordAudit(
      options.origin,
      {
        accountId,
        environment,
        action: 'webhook.created',
        target: { type: 'webhook_endpoint', id },
        details: { url_host: urlHost(request.url), events: request.events },
      },
      tx,
    );
    return created;
  });
  return { endpoint, secret };
}

/** The host of an endpoint's URL, for the audit log: never its path or query, which may carry a receiver's own key. */
export function urlHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
