import { recordAuthFailure } from '@/lib/auth/auth-failure-limiter';
import { authenticateToken, type AuthContext } from '@/lib/auth/authenticate-token';
import { authenticateOpsToken, isOpsToken } from '@/lib/auth/ops-tokens';
import { looksLikeToken, parseAuthorization } from '@/lib/auth/tokens';
import { checkRateLimit, type RateLimitState } from '@/lib/auth/rate-limit';
import { assertScope, CARRIER_OPERATIONS, type RouteScope } from '@/lib/auth/scopes';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { log } from '@/lib/log';
import { AppError } from '@/lib/errors/app-error';
import { errorAnswer } from './errors';
import type { Route } from './routes';

// The API's own steps, whatever carries the request (lib/http/api-app.ts mounts them on Fastify): token auth
// with its limiters and the error envelope with IsSuccess. The request id (request-id.ts), the JSON reader
// (json-body.ts) and the envelope (errors.ts) are the portal's too. Fastify does the routing, the body reading and CORS.

/** What calling one method of a route takes: its scope (lib/auth/scopes.ts), and how a refusal names the call. */
export interface RouteAccess {
  scope: RouteScope;
  operation: string;
}

/** Each method of a route and what it takes (its operation's scope), resolved once when the route is mounted. */
export function routeAccess(route: Route): Record<string, RouteAccess> {
  const access: Record<string, RouteAccess> = {};
  for (const [method, operation] of Object.entries(route.methods)) {
    access[method] = { scope: operation.scope, operation: `${method} ${route.path}` };
  }
  return access;
}

/**
 * The caller, in the pipeline's order: the token (a failure counted against the address, and 429 once the
 * address has failed too often; a valid token is never refused for its address), the token's rate, then its scope (403 insufficient_scope).
 * Shipper routes take shipper tokens (authenticateToken); /ops/… routes take carrier operations tokens only.
 * The wrong kind of valid-looking token is 403: it is known who is asking, and this is not theirs to call.
 */
export async function authenticateRequest(
  route: Route,
  access: RouteAccess,
  environment: Environment,
  authorization: string | null,
  remoteAddress: string | undefined,
  /** Told who is asking as soon as the token is known: a request refused for its rate is still the account's (its request log). */
  identified?: (auth: AuthContext) => void,
  /** Told how much of its rate the token has left (the RateLimit headers). */
  rated?: (state: RateLimitState) => void,
): Promise<AuthContext> {
  const auth = await authenticateCaller(route, environment, authorization).catch(async (error: unknown) => {
    if (error instanceof AppError && error.code === 'unauthorized') await recordAuthFailure(remoteAddress);
    throw error;
  });
  identified?.(auth);
  const rate = await checkRateLimit(auth.tokenId);
  rated?.(rate);
  if (access.scope !== CARRIER_OPERATIONS) assertScope(auth.scopes, access.scope, access.operation);
  return auth;
}

async function authenticateCaller(route: Route, environment: Environment, authorization: string | null): Promise<AuthContext> {
  const token = parseAuthorization(authorization);
  if (route.auth === 'ops') {
    if (token && !isOpsToken(token) && looksLikeToken(token)) {
      // An unknown or revoked shipper token stays a 401 (and counts as a failed authentication); a valid one is 403.
      await authenticateToken({ authorization, environment });
      throw new AppError('forbidden', 'This route takes a carrier operations token (ck_ops_…); a shipper token cannot call it.');
    }
    if (!token)
      throw new AppError('unauthorized', 'Send your operations token as "Authorization: Token <token>".', { challenge: 'Token' });
    return authenticateOpsToken({ token, environment });
  }
  if (token && isOpsToken(token)) {
    throw new AppError('forbidden', 'A carrier operations token (ck_ops_…) may call only the /ops/… routes.');
  }
  return authenticateToken({ authorization, environment });
}

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The one way an error leaves the API: the shared envelope (lib/http/errors.ts), with IsSuccess where the contract has it. */
export function errorResponse(
  error: unknown,
  route: Pick<Route, 'isSuccess'> | undefined,
  requestId: string,
  requestLog: typeof log,
): ErrorAnswer {
  const answer = errorAnswer(error, requestId, requestLog);
  // The container operation reports IsSuccess as text, the package operation as a boolean.
  if (route?.isSuccess === 'text') answer.body.IsSuccess = 'false';
  if (route?.isSuccess === 'boolean') answer.body.IsSuccess = false;
  return {
    status: answer.status,
    headers: { ...answer.headers, 'content-type': 'application/json' },
    body: JSON.stringify(answer.body),
  };
}
