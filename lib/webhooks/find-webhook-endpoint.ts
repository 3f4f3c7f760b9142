import 'server-only';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { PUBLIC_ENDPOINT_FIELDS, type PublicEndpoint } from './present-webhook-endpoint';

export interface EndpointScope {
  accountId: string;
  environment: Environment;
  id: string;
}

/** The endpoint if this account owns it in this environment; otherwise 404, the same for "not yours" and "none". */
export async function findWebhookEndpoint(scope: EndpointScope): Promise<PublicEndpoint> {
  const endpoint = await db.webhookEndpoint.findFirst({
    where: { id: scope.id, accountId: scope.accountId, environment: scope.environment },
    select: PUBLIC_ENDPOINT_FIELDS,
  });
  if (!endpoint) throw notFound(scope.id);
  return endpoint;
}

export function notFound(id: string): AppError {
  return new AppError('not_found', `No webhook endpoint ${id} in this environment.`);
}
