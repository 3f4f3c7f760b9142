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
 * For `gracePeriodSeconds` the old secret keeps signing beside the new one, so receivers verify until redeployed.
 * The old secret moves to previous_secret in the same UPDATE, so two rotations at once cannot both keep it.
 */
export async function rotateWebhookSecret(scope: EndpointScope & { gracePeriodSeconds?: number; origin: AuditOrigin }) {
  const grace = scope.gracePeriodSeconds ?? ROTATION_GRACE_DEFAULT_SECONDS;
  const secret = generateWebhookSecret();
  const sealed = sealSecret(webhookSecretsKeyring(), scope.id, secret);
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
