import 'server-only';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';

// Revoking twice keeps the first time. The api_tokens trigger drops it from every instance's token cache.
export async function revokeApiToken(options: { accountId: string; environment: Environment; id: string; origin: AuditOrigin }) {
  const where = { id: options.id, accountId: options.accountId, environment: options.environment };
  if (!/^[0-9a-f-]{36}$/i.test(options.id)) throw new AppError('not_found', 'No such token.');
  return db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
    const row = await tx.apiToken.findFirst({ where, select: { id: true, revokedAt: true, name: true, displayPrefix: true } });
    if (!row) throw new AppError('not_found', 'No such token.');
    if (count === 1) {
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          environment: options.environment,
          action: 'token.revoked',
          target: { type: 'api_token', id: row.id },
          details: { name: row.name, prefix: row.displayPrefix },
        },
        tx,
      );
    }
    return { id: row.id, revokedAt: row.revokedAt };
  });
}
