import { randomUUID } from 'node:crypto';
import { recordAuthFailure } from '@/lib/auth/auth-failure-limiter';
import { authenticateToken, type AuthContext } from '@/lib/auth/authenticate-token';
import { authenticateOpsToken, isOpsToken } from '@/lib/auth/ops-tokens';
import { looksLikeToken, parseAuthorization } from '@/lib/auth/tokens';
import { checkRateLimit, type RateLimitState } from '@/lib/auth/rate-limit';
import { assertScope, CARRIER_OPERATIONS, type RouteScope } from '@/lib/auth/scopes';
import type { Environment } from '@/lib/generated/prisma/enums';
import type { log } from '@/lib/log';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { logRepeated } from '@/lib/log-repeats';
import { holdsSecret } from '@/lib/request-log/redact';
import { AppError } from '@/lib/errors/app-error';
import { errorBody, errorHeaders, httpStatus } from './errors';
import { assertJsonShape } from './json-shape';
import type { Route } from './routes';

// The API's own steps, whatever carries the request (lib/http/api-app.ts mounts them on Fastify):
// the request-id rule, token auth with its limiters, the JSON shape caps before JSON.parse, and the
// one error envelope. Fastify does the routing, the body reading and CORS.

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * A caller's X-Request-Id when it is one we can log and echo safely, else a new one. An id that holds what the
 * request log redacts (a token or webhook secret pasted into the header) is not echoed nor logged as the id.
 */
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) && !holdsSecret(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
}

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

/** A request body's text as JSON: empty refused, the shape caps (lib/http/json-shape.ts), then JSON.parse. */
export function parseJsonBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '')
    throw new AppError('invalid_json', 'The request body is empty; send a JSON object.');
  assertJsonShape(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The one way an error leaves the API: any error as the envelope, its status and hint headers. */
export function errorResponse(
  error: unknown,
  route: Pick<Route, 'isSuccess'> | undefined,
  requestId: string,
  requestLog: typeof log,
): ErrorAnswer {
  let apiError: AppError;
  if (error instanceof AppError) {
    apiError = error;
  } else if (isDatabaseUnavailable(error)) {
    // Known and expected while PostgreSQL is away: no stack, and once per interval with a count.
    logRepeated(requestLog, 'error', 'database unavailable', error, {}, { anyError: true });
    apiError = new AppError('service_unavailable', 'The service is briefly unavailable; retry shortly.', {
      retryAfterSeconds: 2,
    });
  } else {
    requestLog.error({ err: error }, 'unhandled error');
    apiError = new AppError(
      'internal_error',
      `Something went wrong on our side. Quote request id ${requestId} if you contact us.`,
    );
  }
  const body = errorBody(apiError, requestId);
  // The container operation reports IsSuccess as text, the package operation as a boolean.
  if (route?.isSuccess === 'text') body.IsSuccess = 'false';
  if (route?.isSuccess === 'boolean') body.IsSuccess = false;
  return {
    status: httpStatus(apiError),
    headers: { ...errorHeaders(apiError), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}
