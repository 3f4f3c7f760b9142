import 'server-only';
import { onCacheInvalidation } from '@/lib/cache/invalidation';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { grantedScopes, type ApiScope } from './scopes';
import { constantTimeEqual, hashToken, looksLikeToken, parseAuthorization } from './tokens';

/** Who a request's API token belongs to, in which environment. */
export interface AuthContext {
  accountId: string;
  environment: Environment;
  tokenId: string;
  /** A carrier operations token (lib/auth/ops-tokens.ts): no account; only /ops/… routes. */
  kind?: 'ops';
  /**
   * What the caller may do (lib/auth/scopes.ts): null is every scope (a full-access token, one from before scopes,
   * the portal's session); an operations token has none (its routes are route.auth's to decide).
   */
  scopes: ReadonlySet<ApiScope> | null;
}

/** The scopes of a caller that has none: operations tokens. */
export const NO_SCOPES: ReadonlySet<ApiScope> = new Set();

// Valid tokens are cached briefly so the hot path does not query per request. Revocation reaches
// every instance at once through the api_tokens trigger's notification; the TTL bounds the damage
// if a notification is ever missed.
const TTL_MS = 60_000;
const LAST_USED_EVERY_MS = 60_000;

interface CachedToken extends AuthContext {
  hash: string;
  expiresAt: number;
  lastUsedWrittenAt: number;
}

const cache = new Map<string, CachedToken>();
let subscribed = false;
/**
 * Counts api_tokens invalidations. A lookup caches its row only if none arrived while it read: otherwise a revoke
 * committed (and announced) between the read and the cache write would be undone by the write, and the revoked
 * token would pass until the TTL ran out.
 */
let invalidations = 0;

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  onCacheInvalidation((topic) => {
    if (topic === null) {
      invalidations += 1;
      cache.clear();
    } else if (topic.startsWith('api_tokens:')) {
      invalidations += 1;
      cache.delete(topic.slice('api_tokens:'.length));
    }
  });
}

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, { challenge: 'Token' });
}

export async function authenticateToken(options: {
  authorization: string | null;
  environment: Environment;
}): Promise<AuthContext> {
  subscribe();
  const token = parseAuthorization(options.authorization);
  if (!token) throw unauthorized('Send your API token as "Authorization: Token <token>".');
  if (!looksLikeToken(token)) throw unauthorized('The API token is not valid.');
  const hash = hashToken(token);
  const now = Date.now();
  let entry = cache.get(hash);
  if (!entry || entry.expiresAt < now) {
    const seen = invalidations;
    const row = await db.apiToken.findUnique({
      where: { tokenHash: hash },
      select: { id: true, accountId: true, environment: true, tokenHash: true, revokedAt: true, fullAccess: true, scopes: true },
    });
    if (!row || row.revokedAt || !constantTimeEqual(row.tokenHash, hash)) {
      cache.delete(hash);
      throw unauthorized('The API token is not valid or has been revoked.');
    }
    entry = {
      accountId: row.accountId,
      environment: row.environment,
      tokenId: row.id,
      // A token's scopes never change (a new token is made instead), so the cache keeps them as long as the token.
      scopes: grantedScopes(row),
      hash,
      expiresAt: now + TTL_MS,
      lastUsedWrittenAt: entry?.lastUsedWrittenAt ?? 0,
    };
    if (invalidations === seen) cache.set(hash, entry);
  }
  if (entry.environment !== options.environment) {
    const where = options.environment === 'test' ? 'the test path (/version-test/api/1.1)' : 'the live path (/api/1.1)';
    throw new AppError('wrong_environment', `This is a ${entry.environment} token; it cannot be used on ${where}.`, {
      challenge: 'Token',
    });
  }
  if (now - entry.lastUsedWrittenAt > LAST_USED_EVERY_MS) {
    entry.lastUsedWrittenAt = now;
    // Best effort and off the request's path: a lost write only makes "last used" a minute older.
    db.apiToken.update({ where: { id: entry.tokenId }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  }
  return { accountId: entry.accountId, environment: entry.environment, tokenId: entry.tokenId, scopes: entry.scopes };
}

/**
 * The caller of a request refused before its token was checked (a path no route has, a method the route lacks, an id
 * no id can be), for its request log: known only from the cache of recently valid tokens, never by a query, so that
 * such requests cost nothing and nobody can make the service look tokens up without the failures being counted.
 */
export function recentlyValidCaller(authorization: string | null, environment: Environment): AuthContext | undefined {
  const token = parseAuthorization(authorization);
  if (!token || !looksLikeToken(token)) return undefined;
  const entry = cache.get(hashToken(token));
  if (!entry || entry.expiresAt < Date.now() || entry.environment !== environment) return undefined;
  return { accountId: entry.accountId, environment: entry.environment, tokenId: entry.tokenId, scopes: entry.scopes };
}
