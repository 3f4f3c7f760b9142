import 'server-only';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { API_TOKEN_SELECT, presentApiToken } from './present-api-token';

export async function listApiTokens(options: { accountId: string; environment: Environment }) {
  const rows = await db.apiToken.findMany({
    where: { accountId: options.accountId, environment: options.environment },
    orderBy: { createdAt: 'desc' },
    select: API_TOKEN_SELECT,
  });
  return rows.map(presentApiToken);
}
