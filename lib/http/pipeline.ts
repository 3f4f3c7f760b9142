import { randomUUID } from 'node:crypto';
import { assertAddressNotBlocked, recordAuthFailure } from '@/lib/auth/auth-failure-limiter';
import { authenticateToken } from '@/lib/auth/authenticate-token';
import { authenticateOpsToken, isOpsToken } from '@/lib/auth/ops-tokens';
import { looksLikeToken, parseAuthorization } from '@/lib/auth/tokens';
import { checkRateLimit } from '@/lib/auth/rate-limit';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { logRepeated } from '@/lib/log-repeats';
import { contentDisposition, fileBytes } from './file-body';
import { corsHeaders } from './cors';
import { API_SECURITY_HEADERS, HSTS } from './security-headers';
import { AppError } from '@/lib/errors/app-error';
import { errorBody, errorHeaders, httpStatus } from './errors';
import { assertJsonShape } from './json-shape';
import { matchRoute, type Route, type RouteMatch } from './routes';
import type { ApiRequest, ApiResponse, OperationContext, OperationResult } from './types';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The API's single way in: every adapter (Next route handlers, node:http) calls this. */
export async function handleApiRequest(request: ApiRequest): Promise<ApiResponse> {
  const started = performance.now();
  const incomingId = request.headers.get('x-request-id');
  const requestId = incomingId && REQUEST_ID.test(incomingId) ? incomingId : `req_${randomUUID().replaceAll('-', '')}`;
  let match: RouteMatch | undefined;
  let response: ApiResponse;
  let accountId: string | undefined;
  // Everything from routing on sits inside the one error path: no request leaves without the
  // envelope, its request id and the route's CORS headers.
  try {
    match = matchRoute(request.path);
    if (!match) throw new AppError('not_found', `No API operation at ${request.path}.`);
    if (request.method === 'OPTIONS') {
      response = { status: 204, headers: { ...routeHeaders(match.route).headers }, body: '' };
    } else {
      const operation = match.route.methods[request.method as keyof Route['methods']];
      if (!operation) {
        const { allow } = routeHeaders(match.route);
        throw new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { allowed: allow });
      }
      // Checked before the token: no caller has an id like this, and no query should ever see one.
      if (match.invalidParam) throw new AppError('not_found', `Nothing exists at this path: its ${match.invalidParam} is not an id this service issues.`);
      // The simulator exists in the test environment only: on the live path it is not there at all.
      if (match.route.testOnly && match.environment !== 'test') throw new AppError('not_found', `No API operation at ${request.path}; the simulator exists on the test path (/version-test/api/1.1) only.`);
      assertAddressNotBlocked(request.remoteAddress);
      const auth = await authenticateRequest(match, request.headers.get('authorization')).catch(
        async (error: unknown) => {
          if (error instanceof AppError && error.code === 'unauthorized') await recordAuthFailure(request.remoteAddress);
          throw error;
        },
      );
      accountId = auth.accountId;
      await checkRateLimit(auth.tokenId);
      // A plain object: no accessors. An object literal with a getter here made V8 keep every
      // request's objects alive past the young generation (bench/RESULTS.md, 2026-11-21 08:30),
      // which tripled GC work and set the rate benchmark's p99.
      const context: OperationContext = {
        environment: match.environment,
        auth,
        params: match.params,
        query: request.query,
        accept: request.headers.get('accept'),
        requestId,
        json: () => readJson(request),
      };
      const result = await operation(context);
      response = result.file ? fileResponse(match.route, result.file) : {
        status: result.status ?? 200,
        headers: { ...routeHeaders(match.route).headers, ...result.headers, 'content-type': 'application/json' },
        body: result.body === undefined ? '' : JSON.stringify(result.body),
      };
    }
  } catch (error) {
    // A child logger only on this path: it costs an allocation and a serialisation of its bindings.
    response = errorResponse(error, match?.route, requestId, log.child({ requestId }));
  }
  response.headers['x-request-id'] = requestId;
  if (request.secure) response.headers['strict-transport-security'] = HSTS;
  log.info(
    { requestId, method: request.method, path: request.path, status: response.status, ms: Math.round(performance.now() - started), accountId },
    'request',
  );
  return response;
}

function fileResponse(route: Route, file: NonNullable<OperationResult['file']>): ApiResponse {
  const disposition = contentDisposition(file);
  return {
    status: 200,
    headers: { ...routeHeaders(route).headers, 'content-type': file.contentType, 'content-disposition': disposition },
    body: '',
    bytes: fileBytes(file.bytes),
  };
}

const byRoute = new WeakMap<Route, { allow: string; headers: Readonly<Record<string, string>> }>();

/** A route's Allow header (its methods and OPTIONS) and the CORS and security headers every answer on it carries, built once. */
function routeHeaders(route: Route): { allow: string; headers: Readonly<Record<string, string>> } {
  let cached = byRoute.get(route);
  if (!cached) {
    const allow = [...Object.keys(route.methods), 'OPTIONS'].join(', ');
    cached = { allow, headers: Object.freeze({ ...corsHeaders(allow), ...API_SECURITY_HEADERS }) };
    byRoute.set(route, cached);
  }
  return cached;
}

/**
 * Shipper routes take shipper tokens (authenticateToken); /ops/… routes take carrier operations tokens only.
 * The wrong kind of valid-looking token is 403: it is known who is asking, and this is not theirs to call.
 */
async function authenticateRequest(match: RouteMatch, authorization: string | null) {
  const token = parseAuthorization(authorization);
  if (match.route.auth === 'ops') {
    if (token && !isOpsToken(token) && looksLikeToken(token)) {
      // An unknown or revoked shipper token stays a 401 (and counts as a failed authentication); a valid one is 403.
      await authenticateToken({ authorization, environment: match.environment });
      throw new AppError('forbidden', 'This route takes a carrier operations token (ck_ops_…); a shipper token cannot call it.');
    }
    if (!token) throw new AppError('unauthorized', 'Send your operations token as "Authorization: Token <token>".', { challenge: 'Token' });
    return authenticateOpsToken({ token, environment: match.environment });
  }
  if (token && isOpsToken(token)) {
    throw new AppError('forbidden', 'A carrier operations token (ck_ops_…) may call only the /ops/… routes.');
  }
  return authenticateToken({ authorization, environment: match.environment });
}

async function readJson(request: ApiRequest): Promise<unknown> {
  const text = await request.readBody(env().API_MAX_BODY_BYTES, env().API_BODY_TIMEOUT_MS);
  if (text.trim() === '') throw new AppError('invalid_json', 'The request body is empty; send a JSON object.');
  assertJsonShape(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The one way an error leaves the API. Exported for its unit test. */
export function errorResponse(error: unknown, route: Route | undefined, requestId: string, requestLog: typeof log): ApiResponse {
  let apiError: AppError;
  if (error instanceof AppError) {
    apiError = error;
  } else if (isDatabaseUnavailable(error)) {
    // Known and expected while PostgreSQL is away: no stack, and once per interval with a count.
    logRepeated(requestLog, 'error', 'database unavailable', error, {}, { anyError: true });
    apiError = new AppError('service_unavailable', 'The service is briefly unavailable; retry shortly.', { retryAfterSeconds: 2 });
  } else {
    requestLog.error({ err: error }, 'unhandled error');
    apiError = new AppError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact us.`);
  }
  const body = errorBody(apiError, requestId);
  // The container operation reports IsSuccess as text, the package operation as a boolean.
  if (route?.isSuccess === 'text') body.IsSuccess = 'false';
  if (route?.isSuccess === 'boolean') body.IsSuccess = false;
  return {
    status: httpStatus(apiError),
    headers: { ...(route ? routeHeaders(route).headers : { ...corsHeaders('OPTIONS'), ...API_SECURITY_HEADERS }), ...errorHeaders(apiError), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}
