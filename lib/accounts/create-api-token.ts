import 'server-only';
import { recordAudit, SYSTEM_ORIGIN, type AuditOrigin } from '@/lib/audit/record-audit';
import { API_SCOPES, type ApiScope } from '@/lib/auth/scopes';
import { generateToken } from '@/lib/auth/tokens';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { API_TOKEN_SELECT, presentApiToken } from './present-api-token';

// The plain token is returned once and never stored. `scopes` null is full access; callers validate the list.
export async function createApiToken(options: {
  accountId: string;
  environment: Environment;
  name?: string;
  scopes?: readonly ApiScope[] | null;
  createdByUserId?: string | null;
  origin?: AuditOrigin;
}) {
  const { token, hash, displayPrefix } = generateToken(options.environment);
  const scoped = options.scopes != null && options.scopes.length > 0;
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        accountId: options.accountId,
        environment: options.environment,
        name: options.name ?? '',
        tokenHash: hash,
        displayPrefix,
        fullAccess: !scoped,
        scopes: scoped ? API_SCOPES.filter((scope) => options.scopes?.includes(scope)) : [],
        createdByUserId: options.createdByUserId ?? null,
      },
      select: API_TOKEN_SELECT,
    });
    await recordAudit(
      options.origin ?? SYSTEM_ORIGIN,
      {
        accountId: options.accountId,
        environment: options.environment,
        action: 'token.created',
        target: { type: 'api_token', id: created.id },
        // The name and prefix only: the token itself is in the creator's answer and nowhere else.
        details: {
          name: created.name,
          prefix: created.displayPrefix,
          scopes: created.fullAccess ? ['full_access'] : created.scopes,
        },
      },
      tx,
    );
    return created;
  });
  const { lastUsedAt: _lastUsedAt, revokedAt: _revokedAt, ...created } = presentApiToken(row);
  return { ...created, token };
}

export async function findOrCreateAccount(options: { name: string }) {
  return db.account.upsert({
    where: { name: options.name },
    update: {},
    create: { name: options.name },
    select: { id: true, name: true },
  });
}
