import 'server-only';
import type { z } from 'zod';
import { constantTimeEqual } from '@/lib/auth/tokens';
import { getSession, type PortalSession } from '@/lib/auth/session';
import type { Environment } from '@/lib/generated/prisma/enums';
import { AppError } from '@/lib/errors/app-error';
import { errorAnswer } from '@/lib/http/errors';
import { parseJsonBody } from '@/lib/http/json-body';
import { newRequestId, requestIdFrom } from '@/lib/http/request-id';
import { isPlausiblePathParam } from '@/lib/http/path-params';
import { webRequestClient } from '@/lib/http/request-client';
import { keptBody, recordRequest } from '@/lib/request-log/writer';
import { log } from '@/lib/log';
import { noteAccountWrite } from '@/lib/db';
import { parseOperation, type Aliases } from '@/lib/schemas/parse';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { assertPermission, type RouteAccess } from '@/lib/teams/permissions';
import { requestEnvironment } from './environment';
import { ACCOUNT_HEADER } from './paths';
import { REQUEST_LOGGED_HEADER } from './fetcher';

// Every portal-api handler goes through portalRoute: session, role, CSRF on writes, the page's environment, and the
// API's error envelope so forms can map details[].path to fields.

export interface PortalContext<P> {
  request: Request;
  session: PortalSession;
  user: PortalSession['user'];
  accountId: string;
  environment: Environment;
  params: P;
  requestId: string;
  origin: AuditOrigin;
}

type RouteContext<P> = { params: Promise<P> };

export const CSRF_HEADER = 'x-csrf-token';

// A body can be read only once: the request log takes the texts readJson and jsonResponse saw.
const sentTexts = new WeakMap<Request, string>();
const answerTexts = new WeakMap<Response, string>();

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...init.headers },
  });
  answerTexts.set(response, text);
  return response;
}

export function errorResponse(error: unknown, requestId = newRequestId()): Response {
  const answer = errorAnswer(error, requestId, log);
  return jsonResponse(answer.body, { status: answer.status, headers: { ...answer.headers, 'x-request-id': requestId } });
}

/** 1 MB for forms; the container builder passes the API's limit (5,000 packages need more). */
export async function readJson(request: Request, limit = 1_000_000): Promise<unknown> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit);
  const text = await request.text();
  sentTexts.set(request, text);
  if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
  // The portal's forms send no body where nothing is chosen (removing a member): that is `{}`, not a 400.
  return text.trim() === '' ? {} : parseJsonBody(text);
}

const tooLarge = (limit: number) => new AppError('payload_too_large', `The request body is over ${limit} bytes.`);

export async function readBody<S extends z.ZodType>(request: Request, schema: S, options: { aliases?: Aliases } = {}) {
  return parseOperation(schema, await readJson(request), options);
}

function isMutation(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/** `permission` is required, so that `'self'` (any member's own session and password) is a decision, never an omission. */
export function portalRoute<P = Record<string, never>>(
  handler: (context: PortalContext<P>) => unknown,
  options: {
    permission: RouteAccess;
    /** Not about the page's account (signing out, switching accounts): answered whichever account the page shows. */
    anyAccount?: boolean;
    /** The domain writes its own audit row; other live writes are recorded as `live.write`. */
    audited?: boolean;
  },
) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    const requestId = requestIdFrom(request.headers.get('x-request-id'));
    const started = performance.now();
    let who: { accountId: string; environment: Environment; userId: string } | undefined;
    const answer = (response: Response) => {
      if (who && recordPortalRequest(request, response, { ...who, requestId, ms: performance.now() - started })) {
        return withHeader(response, REQUEST_LOGGED_HEADER, '1');
      }
      return response;
    };
    let response: Response;
    try {
      // Before the session: an impossible id must never reach a query (PostgreSQL refuses NUL in text).
      const params = checkedParams((await context?.params) ?? ({} as P));
      const session = await getSession();
      if (!session) throw new AppError('unauthorized', 'Sign in to continue.');
      // A tab left on the account before a switch in another tab is told so, not let into the other account.
      if (!options.anyAccount) assertPageAccount(request, session);
      // The role is checked before the CSRF token and the body: a viewer's write is refused whatever it sends.
      if (options.permission !== 'self') assertPermission(session.role, options.permission);
      if (isMutation(request.method)) {
        const sent = request.headers.get(CSRF_HEADER) ?? '';
        if (!constantTimeEqual(sent, session.csrfToken)) {
          throw new AppError('forbidden', 'Missing or wrong CSRF token; reload the page and try again.');
        }
      }
      const environment = requestEnvironment(request);
      who = { accountId: session.account.id, environment, userId: session.user.id };
      const origin: AuditOrigin = {
        actor: { kind: 'user', userId: session.user.id, email: session.user.email },
        address: webRequestClient(request.headers).address,
        userAgent: request.headers.get('user-agent'),
      };
      const result = await handler({
        request,
        session,
        user: session.user,
        accountId: session.account.id,
        environment,
        params,
        requestId,
        origin,
      });
      response = result instanceof Response ? result : jsonResponse(result ?? null);
      // Read-your-writes: the next dashboard reads skip a replica that may lag.
      if (isMutation(request.method) && response.status < 400) noteAccountWrite(session.account.id);
      if (environment === 'live' && response.status < 400 && isMutation(request.method) && !options.audited) {
        liveWriteAudit(request, response, { accountId: session.account.id, permission: options.permission, requestId, origin });
      }
    } catch (error) {
      return answer(errorResponse(error, requestId));
    }
    return answer(withHeader(response, 'x-request-id', requestId));
  };
}

/** After the write's own commit, so best effort: a failed audit row is logged, never an error for a write that happened. */
function liveWriteAudit(
  request: Request,
  response: Response,
  who: { accountId: string; permission: RouteAccess; requestId: string; origin: AuditOrigin },
): void {
  if (who.permission === 'self' || who.permission === 'rates:quote') return;
  const path = new URL(request.url).pathname.replace(/^\/portal-api/, '');
  recordAudit(who.origin, {
    accountId: who.accountId,
    environment: 'live',
    action: 'live.write',
    target: null,
    details: { method: request.method, path, status: response.status, requestId: who.requestId },
  }).catch((error: unknown) => log.error({ err: error, requestId: who.requestId }, 'audit row for a live write not written'));
}

/** A request without x-carrier-account (a script) is not about a page: answered for the session's account. */
function assertPageAccount(request: Request, session: PortalSession): void {
  const page = request.headers.get(ACCOUNT_HEADER);
  if (page === null || page === session.account.id) return;
  throw new AppError(
    'account_changed',
    `This page belongs to another account than the one you are now working in: you switched to ${session.account.name} in another tab or window. Nothing was changed. Reload the page to continue in ${session.account.name}.`,
    { extra: { current_account: session.account } },
  );
}

/** Writes and errors only: the pages repeat their reads by the hundred. */
function recordPortalRequest(
  request: Request,
  response: Response,
  who: { accountId: string; environment: Environment; userId: string; requestId: string; ms: number },
): boolean {
  if (!isMutation(request.method) && response.status < 400) return false;
  const url = new URL(request.url);
  if (url.pathname === '/portal-api/requests' || url.pathname.startsWith('/portal-api/requests/')) return false;
  const requestBody = keptBody(sentTexts.get(request));
  const responseBody = keptBody(answerTexts.get(response));
  recordRequest({
    requestId: who.requestId,
    accountId: who.accountId,
    environment: who.environment,
    source: 'portal',
    method: request.method,
    path: url.pathname.startsWith('/portal-api/') ? url.pathname.slice('/portal-api'.length) : url.pathname,
    query: url.search.slice(1),
    status: response.status,
    durationMs: who.ms,
    userId: who.userId,
    clientAddress: webRequestClient(request.headers).address,
    userAgent: request.headers.get('user-agent'),
    requestBody: requestBody.body,
    requestBytes: requestBody.bytes,
    responseBody: responseBody.body,
    responseBytes: responseBody.bytes,
    atMs: Date.now() - who.ms,
  });
  return true;
}

function checkedParams<P>(params: P): P {
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    if (!values.every((one) => typeof one === 'string' && isPlausiblePathParam(one))) {
      throw new AppError('not_found', `Nothing exists at this path: its ${name} is not an id this service issues.`);
    }
  }
  return params;
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (a Response.redirect, say): copy it.
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/** Sign-in and sign-up have no CSRF token yet: JSON only (a cross-site form cannot send it) and no foreign Origin. */
export function assertSameOrigin(request: Request): void {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new AppError('unsupported_media_type', 'Send the request as application/json.');
  }
  const origin = request.headers.get('origin');
  if (origin === null) return;
  // `Origin: null` (a sandboxed frame, a redirect across sites) cannot be shown to be this site.
  if (!URL.canParse(origin)) throw new AppError('forbidden', 'Cross-site request refused: the Origin header is not a URL.');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (host && new URL(origin).host !== host) throw new AppError('forbidden', 'Cross-site request refused.');
}
