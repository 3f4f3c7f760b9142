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
  /** This answer's x-request-id. */
  requestId: string;
  /** The signed-in user and the trusted client address, for the audit log (lib/audit). */
  origin: AuditOrigin;
}

type RouteContext<P> = { params: Promise<P> };

export const CSRF_HEADER = 'x-csrf-token';

// The request log (lib/request-log) keeps what a portal write sent and was answered: the texts, by request and
// response, as readJson and jsonResponse had them (a body can be read only once).
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

/**
 * Turns anything thrown by a handler into the error envelope, with `x-request-id` (and the same id as
 * `error.request_id`): the API's answer (lib/http/errors.ts errorAnswer).
 */
export function errorResponse(error: unknown, requestId = newRequestId()): Response {
  const answer = errorAnswer(error, requestId, log);
  return jsonResponse(answer.body, { status: answer.status, headers: { ...answer.headers, 'x-request-id': requestId } });
}

/**
 * Reads a JSON body of at most `limit` bytes (1 MB for forms; the container builder passes the API's
 * limit, since 5,000 packages need more); 400 invalid_json when it is not JSON.
 */
export async function readJson(request: Request, limit = 1_000_000): Promise<unknown> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit);
  const text = await request.text();
  sentTexts.set(request, text);
  if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
  return parseJsonBody(text);
}

const tooLarge = (limit: number) => new AppError('payload_too_large', `The request body is over ${limit} bytes.`);

/** Reads and validates a JSON body with a shared schema (422 with every failing field). */
export async function readBody<S extends z.ZodType>(request: Request, schema: S, options: { aliases?: Aliases } = {}) {
  return parseOperation(schema, await readJson(request), options);
}

function isMutation(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}

/**
 * Wraps a portal-api handler. The handler returns a plain value (sent as JSON 200) or a Response.
 * 401 without a session; 403 `forbidden` naming the permission when the session's role lacks `permission`
 * (lib/teams/permissions.ts); 403 when a mutation lacks the session's `x-csrf-token` header.
 *
 * `permission` is required: every route says what it needs, and `'self'` (the signed-in user's own session,
 * password and sessions: any member) is a decision written down, never an omission.
 */
export function portalRoute<P = Record<string, never>>(
  handler: (context: PortalContext<P>) => unknown,
  options: {
    permission: RouteAccess;
    /** Not about the page's account (signing out, switching accounts): answered whichever account the page shows. */
    anyAccount?: boolean;
    /**
     * The route's domain writes its own audit row (token.created, webhook.updated, manifest.cancelled…); other
     * successful writes in live are recorded as `live.write` (liveWriteAudit below).
     */
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
      // First, before the session: a path id that no id can be names nothing for anyone, and must
      // never reach a query (PostgreSQL refuses NUL in text).
      const params = checkedParams((await context?.params) ?? ({} as P));
      const session = await getSession();
      if (!session) throw new AppError('unauthorized', 'Sign in to continue.');
      // First of all after the session: a tab still showing the account the session acted for before a switch in
      // another tab is told so, rather than refused for a role it has not here, or let into the other account.
      if (!options.anyAccount) assertPageAccount(request, session);
      // The role is checked before the CSRF token and the body: a viewer's write is refused whatever it sends.
      if (options.permission !== 'self') assertPermission(session.role, options.permission);
      if (isMutation(request.method)) {
        const sent = request.headers.get(CSRF_HEADER) ?? '';
        if (!constantTimeEqual(sent, session.csrfToken)) {
          throw new AppError('forbidden', 'Missing or wrong CSRF token; reload the page and try again.');
        }
      }
      // The page's environment, sent by the fetcher (never the cookie); 400 without it.
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
      // Its next dashboard reads go to the primary for a few seconds, not to a replica that may not have the write yet.
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

/**
 * A portal user's successful write in live that no domain action records (a container manifest built by hand, an
 * import mapping saved, a webhook test sent): one `live.write` row naming the method, path and status (the teams decision:
 * "writes in live"). A user's own password and sessions are recorded as such, and a rate quote writes nothing.
 * After the write's own commit, so best effort: a failure is logged, never turned into an error for a write that
 * happened.
 */
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

/**
 * The page's account (x-carrier-account, which the portal's fetcher sends) must be the session's: otherwise the
 * session was switched to another account in another tab, and this tab's read or write would land there. A request
 * without the header (a script, the API suite) is not about a page and is answered for the session's account.
 */
function assertPageAccount(request: Request, session: PortalSession): void {
  const page = request.headers.get(ACCOUNT_HEADER);
  if (page === null || page === session.account.id) return;
  throw new AppError(
    'account_changed',
    `This page belongs to another account than the one you are now working in: you switched to ${session.account.name} in another tab or window. Nothing was changed. Reload the page to continue in ${session.account.name}.`,
    { extra: { current_account: session.account } },
  );
}

/**
 * A portal request's line in the account's request log: its writes and its errors (the ones the portal shows, each
 * linked to its line), not its reads, which the pages repeat by the hundred. Before the session and the environment
 * are known there is no account's log to write to.
 */
function recordPortalRequest(
  request: Request,
  response: Response,
  who: { accountId: string; environment: Environment; userId: string; requestId: string; ms: number },
): boolean {
  if (!isMutation(request.method) && response.status < 400) return false;
  const url = new URL(request.url);
  // The Logs page's own reads, failed ones included (a line followed before it was written): not the log's business.
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

/** The route's dynamic segments ([id], [deliveryId]), each one that could be an id; otherwise 404. */
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

/**
 * For the public auth endpoints (sign in, sign up), which have no session and so no CSRF token yet:
 * they accept only JSON (a cross-site form cannot send it without a CORS preflight, which we never
 * grant) and refuse a foreign Origin.
 */
export function assertSameOrigin(request: Request): void {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new AppError('unsupported_media_type', 'Send the request as application/json.');
  }
  const origin = request.headers.get('origin');
  if (origin === null) return;
  // `Origin: null` (a sandboxed frame, a file:, a redirect across sites) and anything else that is no
  // URL cannot be shown to be this site: refused like a foreign one.
  if (!URL.canParse(origin)) throw new AppError('forbidden', 'Cross-site request refused: the Origin header is not a URL.');
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (host && new URL(origin).host !== host) throw new AppError('forbidden', 'Cross-site request refused.');
}
