import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgTransaction } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import { ROTATION_GRACE_DEFAULT_SECONDS } from '@/lib/schemas/webhooks';
import { findWebhookEndpoint, notFound, type EndpointScope } from './find-webhook-endpoint';
import { generateWebhookSecret } from './generate-secret';
import { sealSecret } from './secret-box';
import { webhookSecretsKeyring } from './secrets-keyring';

/**
 * Replaces the signing secret. For `gracePeriodSeconds` (24 h by default; 0 = at once) the old
 * secret keeps signing beside the new one: each attempt carries one `v1,` signature per secret, so
 * receivers still holding the old one verify until they are redeployed. Rotating again within that
 * time keeps only the secret just replaced. The new secret is shown this once and stored encrypted;
 * the old one moves to previous_secret as it is stored (one statement, so two rotations at once
 * cannot both keep the same old secret).
 */
export async function rotateWebhookSecret(scope: EndpointScope & { gracePeriodSeconds?: number; origin: AuditOrigin }) {
  const grace = scope.gracePeriodSeconds ?? ROTATION_GRACE_DEFAULT_SECONDS;
  const secret = generateWebhookSecret();
  const sealed = sealSecret(webhookSecretsKeyring(), scope.id, secret);
  // SQL, not Prisma: the old secret moves over in the same UPDATE (SET previous_secret = secret).
  const row = await pgTransaction(async (client) => {
    const rotated = await queryRow(
      client,
      sql<{ previous_secret_expires_at: Date | null }>`
      UPDATE webhook_endpoints
      SET previous_secret = CASE WHEN ${grace}::int > 0 THEN secret END,
          previous_secret_expires_at = CASE WHEN ${grace}::int > 0 THEN now() + ${grace}::int * interval '1 second' END,
          secret = ${sealed}, updated_at = now()
      WHERE id = ${scope.id} AND account_id = ${scope.accountId}::uuid AND environment = ${scope.environment}::"Environment"
      RETURNING previous_secret_expires_at`,
    );
    if (!rotated) throw notFound(scope.id);
    await recordAudit(
      scope.origin,
      {
        accountId: scope.accountId,
        environment: scope.environment,
        action: 'webhook.secret_rotated',
        target: { type: 'webhook_endpoint', id: scope.id },
        details: { grace_period_seconds: grace },
      },
      client,
    );
    return rotated;
  });
  const endpoint = await findWebhookEndpoint(scope);
  return { endpoint, secret, previousSecretExpiresAt: row.previous_secret_expires_at };
}
