import 'server-only';
import { generateToken } from '@/lib/auth/tokens';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';

/** Creates a token for an account; the plain token is returned once and never stored. */
export async function createApiToken(options: { accountId: string; environment: Environment; name?: string }) {
  const { token, hash, displayPrefix } = generateToken(options.environment);
  const row = await db.apiToken.create({
    data: { accountId: options.accountId, environment: options.environment, name: options.name ?? '', tokenHash: hash, displayPrefix },
    select: { id: true, name: true, environment: true, displayPrefix: true, createdAt: true },
  });
  return { ...row, token };
}

/** The account of this name, created on first use. */
export async function findOrCreateAccount(options: { name: string }) {
  return db.account.upsert({ where: { name: options.name }, update: {}, create: { name: options.name }, select: { id: true, name: true } });
}
