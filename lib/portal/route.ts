import 'server-only';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { constantTimeEqual } from '@/lib/auth/tokens';
import { getSession, type PortalSession } from '@/lib/auth/session';
import type { Environment } from '@/lib/generated/prisma/enums';
import { ApiError, errorBody } from '@/lib/http/errors';
import { log } from '@/lib/log';
import { parseOperation, type Aliases } from '@/lib/schemas/parse';
import { requestEnvironment } from './environment';

// Every portal-api handler goes through portalRoute: it resolves who is asking and in which
// environment, refuses mutations without the session's CSRF token, and turns errors into the API's
// envelope so forms can map details[].path to fields.

export interface PortalContext<P> {
  request: Request;
  session: PortalSession;
  user: PortalSession['user'];
  accountId: string;
  environment: Environment;
  params: P;
}

type RouteContext<P> = { params: Promise<P> };

export const CSRF_HEADER = 'x-csrf-token';

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...init.headers },
  });
}

/** Turns anything thrown by a handler into the error envelope; unknown errors become a logged 500. */
export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) return jsonResponse(errorBody(error), { status: error.status, headers: error.headers });
  const requestId = randomUUID();
  log.error({ err: error, requestId }, 'portal request failed');
  return jsonResponse(errorBody(new ApiError('internal_error', 'Something went wrong on our side.'), requestId), { status: 500 });
}

/**
 * Reads a JSON body of at most `limit` bytes (1 MB for forms; the container builder passes the API's
 * limit, since 5,000 packages need more); 400 invalid_json when it is not JSON.
 */
export async function readJson(request: Request, limit = 1_000_000): Promise<unknown> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit);
  const text = await request.text();
  if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}

const tooLarge = (limit: number) => new ApiError('payload_too_large', `The request body is over ${limit} bytes.`);

/** Reads and validates a JSON body with a shared schema (422 with every failing field). */
export async function readBody<S extends z.ZodType>(request: Request, schema: S, options: { aliases?: Aliases } = {}) {
  return parseOperation(schema, await readJson(request), options);
}

function isMutation(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/**
 * Wraps a portal-api handler. The handler returns a plain value (sent as JSON 200) or a Response.
 * 401 without a session; 403 when a mutation lacks the session's `x-csrf-token` header.
 */
export function portalRoute<P = Record<string, never>>(handler: (context: PortalContext<P>) => Promise<unknown>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const session = await getSession();
      if (!session) throw new ApiError('unauthorized', 'Sign in to continue.');
      if (isMutation(request.method)) {
        const sent = request.headers.get(CSRF_HEADER) ?? '';
        if (!constantTimeEqual(sent, session.csrfToken)) {
          throw new ApiError('forbidden', 'Missing or wrong CSRF token; reload the page and try again.');
        }
      }
      const result = await handler({
        request,
        session,
        user: session.user,
        accountId: session.account.id,
        // The page's environment, sent by the fetcher (never the cookie); 400 without it.
        environment: requestEnvironment(request),
        params: (await context?.params) ?? ({} as P),
      });
      return result instanceof Response ? result : jsonResponse(result ?? null);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * For the public auth endpoints (sign in, sign up), which have no session and so no CSRF token yet:
 * they accept only JSON (a cross-site form cannot send it without a CORS preflight, which we never
 * grant) and refuse a foreign Origin.
 */
export function assertSameOrigin(request: Request): void {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new ApiError('unsupported_media_type', 'Send the request as application/json.');
  }
  const origin = request.headers.get('origin');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (origin && host && new URL(origin).host !== host) throw new ApiError('forbidden', 'Cross-site request refused.');
}
