import 'server-only';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';

/**
 * Revokes a token of this account and environment (idempotent: revoking twice keeps the first time).
 * The api_tokens trigger tells every instance to drop it from its token cache.
 */
export async function revokeApiToken(options: { accountId: string; environment: Environment; id: string }) {
  const where = { id: options.id, accountId: options.accountId, environment: options.environment };
  if (!/^[0-9a-f-]{36}$/i.test(options.id)) throw new AppError('not_found', 'No such token.');
  await db.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await db.apiToken.findFirst({ where, select: { id: true, revokedAt: true } });
  if (!row) throw new AppError('not_found', 'No such token.');
  return row;
}
