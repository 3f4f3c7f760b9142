import 'server-only';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';

/** The account's tokens in one environment, newest first; never the hash. */
export async function listApiTokens(options: { accountId: string; environment: Environment }) {
  return db.apiToken.findMany({
    where: { accountId: options.accountId, environment: options.environment },
    orderBy: { createdAt: 'desc' },
    select: { id: true, name: true, environment: true, displayPrefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}
