import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { db } from '@/lib/db';
import { urlHost } from './create-webhook-endpoint';
import { notFound, type EndpointScope } from './find-webhook-endpoint';

/** Deletes the endpoint with its queued messages and attempt log (an attempt in flight still ends). */
export async function deleteWebhookEndpoint(scope: EndpointScope & { origin: AuditOrigin }): Promise<void> {
  await db.$transaction(async (tx) => {
    const where = { id: scope.id, accountId: scope.accountId, environment: scope.environment };
    const deleted = await tx.webhookEndpoint.findFirst({ where, select: { url: true } });
    const { count } = await tx.webhookEndpoint.deleteMany({ where });
    // Two deletes racing: the one that deleted nothing records nothing.
    if (!deleted || count === 0) throw notFound(scope.id);
    await recordAudit(
      scope.origin,
      {
        accountId: scope.accountId,
        environment: scope.environment,
        action: 'webhook.deleted',
        target: { type: 'webhook_endpoint', id: scope.id },
        details: { url_host: urlHost(deleted.url) },
      },
      tx,
    );
  });
}
