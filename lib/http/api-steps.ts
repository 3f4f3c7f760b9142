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

// The API's own steps (token auth with its limiters, the error envelope with IsSuccess); lib/http/api-app.ts mounts them.

export interface RouteAccess {
  scope: RouteScope;
  operation: string;
}

export function routeAccess(route: Route): Record<string, RouteAccess> {
  const access: Record<string, RouteAccess> = {};
  for (const [method, operation] of Object.entries(route.methods)) {
    access[method] = { scope: operation.scope, operation: `${method} ${route.path}` };
  }
  return access;
}

// A failed token counts against the address, but a valid token is never refused for its address. The wrong kind of
// valid token is 403: we know who is asking, and the route is not theirs to call.
export async function authenticateRequest(
  route: Route,
  access: RouteAccess,
  environment: Environment,
  authorization: string | null,
  remoteAddress: string | undefined,
  /** Called once the token is known: a request then refused for its rate still belongs in the account's request log. */
  identified?: (auth: AuthContext) => void,
  rated?: (state: RateLimitState) => void,
): Promise<AuthContext> {
  const auth = await authenticateCaller(route, environment, authorization).catch(async (error: unknown) => {
    if (error instanceof AppError && error.code === 'unauthorized') await recordAuthFailure(remoteAddress);
    throw error;
  });
  identified?.(auth);
  const rate = checkRateLimit(auth.tokenId);
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
