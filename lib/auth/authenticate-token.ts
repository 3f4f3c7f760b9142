import 'server-only';
import { onCacheInvalidation } from '@/lib/cache/invalidation';
import { db } from '@/lib/db';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { grantedScopes, type ApiScope } from './scopes';
import { constantTimeEqual, hashToken, looksLikeToken, parseAuthorization } from './tokens';

export interface AuthContext {
  accountId: string;
  environment: Environment;
  tokenId: string;
  kind?: 'ops';
  /** null is every scope (a full-access token, the portal's session); an operations token has none. */
  scopes: ReadonlySet<ApiScope> | null;
}

export const NO_SCOPES: ReadonlySet<ApiScope> = new Set();

// Valid tokens are cached briefly: a revocation reaches every instance at once through the api_tokens trigger's
// notification, and the TTL bounds a missed one.
const TTL_MS = 60_000;
const LAST_USED_EVERY_MS = 60_000;

interface CachedToken extends AuthContext {
  hash: string;
  expiresAt: number;
  lastUsedWrittenAt: number;
}

const cache = new Map<string, CachedToken>();
let subscribed = false;
// A lookup is cached only if no invalidation arrived while it read, or a revoke announced meanwhile would be undone.
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

// The hash of each Authorization header that lately carried a valid token: parsing and hashing one was a measurable share
// of a quote. Only valid tokens enter (a stranger's guesses cannot fill it); a revoked one still misses `cache` above.
const knownHeaders = new Map<string, string>();
const KNOWN_HEADERS_MAX = 10_000;

function remember(authorization: string, hash: string): void {
  if (knownHeaders.size >= KNOWN_HEADERS_MAX) knownHeaders.clear();
  knownHeaders.set(authorization, hash);
}

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message, { challenge: 'Token' });
}

export async function authenticateToken(options: {
  authorization: string | null;
  environment: Environment;
}): Promise<AuthContext> {
  subscribe();
  const known = options.authorization === null ? undefined : knownHeaders.get(options.authorization);
  let hash = known;
  if (hash === undefined) {
    const token = parseAuthorization(options.authorization);
    if (!token) throw unauthorized('Send your API token as "Authorization: Token <token>".');
    if (!looksLikeToken(token)) throw unauthorized('The API token is not valid.');
    hash = hashToken(token);
  }
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
  if (known === undefined && options.authorization !== null) remember(options.authorization, hash);
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

// Known only from the cache, never by a query, so that nobody can make the service look tokens up uncounted.
export function recentlyValidCaller(authorization: string | null, environment: Environment): AuthContext | undefined {
  let hash = authorization === null ? undefined : knownHeaders.get(authorization);
  if (hash === undefined) {
    const token = parseAuthorization(authorization);
    if (!token || !looksLikeToken(token)) return undefined;
    hash = hashToken(token);
  }
  const entry = cache.get(hash);
  if (!entry || entry.expiresAt < Date.now() || entry.environment !== environment) return undefined;
  return { accountId: entry.accountId, environment: entry.environment, tokenId: entry.tokenId, scopes: entry.scopes };
}
