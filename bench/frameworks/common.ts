// What the framework apps of `npm run bench -- --only servers` (bench/servers.ts) share: the parts of
// lib/http/api-steps.ts that a move to a framework would keep, because no framework does them for
// us (token auth and its limiters, the request-id rule, the JSON shape caps, the error envelope and
// its log line). What a framework would replace — the router, the body reader, CORS — each app does
// with the framework's own means. Everything here calls the same lib functions the pipeline calls.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { assertAddressNotBlocked, recordAuthFailure } from '@/lib/auth/auth-failure-limiter';
import { authenticateToken, type AuthContext } from '@/lib/auth/authenticate-token';
import { checkRateLimit } from '@/lib/auth/rate-limit';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { answerClientError } from '@/lib/http/client-error';
import { corsHeaders } from '@/lib/http/cors';
import { errorBody, errorHeaders, httpStatus } from '@/lib/http/errors';
import { assertJsonShape } from '@/lib/http/json-shape';
import { apiRoutes, type Route } from '@/lib/http/routes';
import type { Operation } from '@/lib/http/types';
import { log } from '@/lib/log';
import { logRepeated } from '@/lib/log-repeats';

export { log };

/** The pipeline's rule for a caller's X-Request-Id (lib/http/api-steps.ts REQUEST_ID), else a new one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
}

/** The pipeline's auth steps, in its order: the address's block, the token (a failure counted), the token's rate. */
export async function authenticate(authorization: string | null | undefined, environment: Environment, remoteAddress: string | undefined): Promise<AuthContext> {
  assertAddressNotBlocked(remoteAddress);
  const auth = await authenticateToken({ authorization: authorization ?? null, environment }).catch(async (error: unknown) => {
    if (error instanceof AppError && error.code === 'unauthorized') await recordAuthFailure(remoteAddress);
    throw error;
  });
  await checkRateLimit(auth.tokenId);
  return auth;
}

/** The pipeline's readJson after the body is read: empty refused, the shape caps, then JSON.parse. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw new AppError('invalid_json', 'The request body is empty; send a JSON object.');
  assertJsonShape(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The pipeline's errorResponse: any error as the envelope, its status and hint headers. */
export function envelope(error: unknown, requestId: string, isSuccess?: Route['isSuccess']): { status: number; headers: Record<string, string>; body: string } {
  let apiError: AppError;
  if (error instanceof AppError) apiError = error;
  else if (isDatabaseUnavailable(error)) {
    logRepeated(log.child({ requestId }), 'error', 'database unavailable', error, {}, { anyError: true });
    apiError = new AppError('service_unavailable', 'The service is briefly unavailable; retry shortly.', { retryAfterSeconds: 2 });
  } else {
    log.child({ requestId }).error({ err: error }, 'unhandled error');
    apiError = new AppError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact us.`);
  }
  const body = errorBody(apiError, requestId);
  if (isSuccess === 'text') body.IsSuccess = 'false';
  if (isSuccess === 'boolean') body.IsSuccess = false;
  return { status: httpStatus(apiError), headers: { ...errorHeaders(apiError), 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The pipeline's CORS answer, as settings for a framework's CORS middleware. */
const CORS = corsHeaders('');
const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
export const CORS_SETTINGS = {
  allowHeaders: list(CORS['access-control-allow-headers']),
  exposeHeaders: list(CORS['access-control-expose-headers']),
  maxAge: Number(CORS['access-control-max-age']),
  methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
};

/** Every API operation at its full path (both bases), as a framework's router would be given them. */
export interface MountedRoute {
  path: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  environment: Environment;
  operation: Operation;
  isSuccess?: Route['isSuccess'];
}
export function mountedRoutes(): MountedRoute[] {
  const bases: [string, Environment][] = [
    ['/version-test/api/1.1', 'test'],
    ['/api/1.1', 'live'],
  ];
  return bases.flatMap(([base, environment]) =>
    apiRoutes().flatMap((route) =>
      Object.entries(route.methods).flatMap(([method, operation]) =>
        (method === 'GET' || method === 'POST' || method === 'PATCH' || method === 'DELETE')
          ? [{ path: base + route.pattern, method, environment, operation, isSuccess: route.isSuccess } satisfies MountedRoute]
          : [],
      ),
    ),
  );
}

/** The query string of a request target (the pipeline hands operations a URLSearchParams of it). */
/** The raw query string of a request target, without `?` (OperationContext.search). */
export function searchOf(target: string): string {
  return target.includes('?') ? target.slice(target.indexOf('?') + 1) : '';
}

export function queryOf(target: string): URLSearchParams {
  const q = target.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : target.slice(q));
}

/**
 * The production server's node:http settings (scripts/server.ts), except that the body's deadline
 * is Node's own requestTimeout (API_BODY_TIMEOUT_MS for the whole request) rather than a timer per
 * request in the body reader: what a framework app would use, since neither framework has one.
 */
export function configureServer(server: Server): void {
  server.headersTimeout = 10_000;
  server.requestTimeout = env().API_BODY_TIMEOUT_MS;
  server.keepAliveTimeout = 65_000;
  server.removeAllListeners('clientError');
  server.on('clientError', answerClientError);
}

export function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

export function port(): number {
  return Number(process.env.PORT ?? 3000);
}

/** SIGTERM: close and exit (as the baselines do). */
export function stopOnSignal(close: () => Promise<unknown>): void {
  process.once('SIGTERM', () => void close().then(() => process.exit(0), () => process.exit(1)));
}
