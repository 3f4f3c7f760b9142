import 'server-only';
import { randomBytes } from 'node:crypto';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { NO_SCOPES, type AuthContext } from './authenticate-token';
import { hashToken } from './tokens';

// Carrier operations tokens belong to the carrier, not to a shipper account.

export const OPS_TOKEN_PREFIX = 'ck_ops_';
const OPS_TOKEN_FORMAT = /^ck_ops_[A-Za-z0-9_-]{43}$/;

export function isOpsToken(token: string): boolean {
  return token.startsWith(OPS_TOKEN_PREFIX);
}

export async function createOpsToken(options: { name: string }): Promise<{ id: string; token: string }> {
  const token = OPS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await queryRow(
    pgPool(),
    sql<{ id: string }>`INSERT INTO ops_tokens (id, name, display_prefix, token_hash)
      VALUES (gen_random_uuid(), ${options.name}, ${token.slice(0, OPS_TOKEN_PREFIX.length + 4)}, ${hashToken(token)}) RETURNING id`,
  );
  if (!row) throw new Error('ops token insert returned nothing');
  return { id: row.id, token };
}

export async function authenticateOpsToken(options: { token: string; environment: Environment }): Promise<AuthContext> {
  const unauthorized = () =>
    new AppError('unauthorized', 'The operations token is not valid or has been revoked.', { challenge: 'Token' });
  if (!OPS_TOKEN_FORMAT.test(options.token)) throw unauthorized();
  const row = await queryRow(
    pgPool(),
    sql<{
      id: string;
    }>`UPDATE ops_tokens SET last_used_at = now() WHERE token_hash = ${hashToken(options.token)} AND revoked_at IS NULL RETURNING id`,
  );
  if (!row) throw unauthorized();
  return { accountId: '', environment: options.environment, tokenId: `ops:${row.id}`, kind: 'ops', scopes: NO_SCOPES };
}
