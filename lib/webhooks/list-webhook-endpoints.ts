import 'server-only';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { PUBLIC_ENDPOINT_FIELDS } from './present-webhook-endpoint';

/** All of the account's endpoints in one environment (at most MAX_ENDPOINTS), oldest first. */
export async function listWebhookEndpoints(options: { accountId: string; environment: Environment }) {
  return db.webhookEndpoint.findMany({
    where: { accountId: options.accountId, environment: options.environment },
    select: PUBLIC_ENDPOINT_FIELDS,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}
