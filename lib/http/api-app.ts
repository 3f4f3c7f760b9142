import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import Fastify, { type FastifyBodyParser, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { recentlyValidCaller, type AuthContext } from '@/lib/auth/authenticate-token';
import { rateLimitHeaders } from '@/lib/auth/rate-limit';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { log } from '@/lib/log';
import { keptBody, recordRequest, shouldRecordRefusal } from '@/lib/request-log/writer';
import { authenticateRequest, errorResponse, routeAccess, type RouteAccess } from './api-steps';
import { parseJsonBody } from './json-body';
import { requestIdFrom } from './request-id';
import { apiHeaders } from './cors';
import { isSpilled } from '@/lib/documents/spilled-document';
import { contentDisposition, fileBytes } from './file-body';
import { deprecationHeaders } from '@/lib/api/deprecation';
import { idempotencyKeyOf, onceForKey } from './idempotency';
import { isPlausiblePathParam } from './path-params';
import { routingTarget } from './request-target';
import { apiBases, apiRoutes, type Route } from './routes';
import { HSTS } from './security-headers';
import { checkedHandler, type OperationContext, type OperationResult } from '@/lib/api/operation';

// The API on Fastify (docs/decisions/production-server.md): Fastify routes and reads bodies; api-steps.ts does ids,
// auth, caps and the envelope. Everything up to the caller's token and rate runs before the body is read, in one hook:
// each hook Fastify runs, and @fastify/cors's per-request merge of its options, was a measurable share of a quote.

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    client: { address: string | undefined; secure: boolean } | null;
  }
  interface FastifyRequest {
    responseText: string | null;
  }
  interface FastifyContextConfig {
    route?: Route;
    environment?: Environment;
    access?: Readonly<Record<string, RouteAccess>>;
    routeHeaders?: Readonly<Record<string, string>>;
  }
}

export interface ApiAppOptions {
  client(raw: IncomingMessage): { address: string | undefined; secure: boolean };
  abandonBody?(raw: IncomingMessage, reply: FastifyReply): void;
  server?: { create(handler: (req: IncomingMessage, res: ServerResponse) => void): Server };
}

// Every method is mounted, so that the ones a route lacks answer 405 with Allow.
const METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'] as const;

// Any origin, no credentials (cors.ts): the same CORS headers on every answer, preflight or not.
const NO_ROUTE_HEADERS: Readonly<Record<string, string>> = Object.freeze(apiHeaders('OPTIONS'));

function methodOf(method: string, route: Route): keyof Route['methods'] {
  return (method === 'HEAD' && route.methods.GET ? 'GET' : method) as keyof Route['methods'];
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

// What the client sent, for messages and the log: the router is given routingTarget's rewrite (`%zz` as `%00`).
const sentPathOf = (request: FastifyRequest) => pathOf(request.originalUrl);

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function fromFastify(error: unknown, limit: number): unknown {
  if (error instanceof AppError || !(error instanceof Error) || !('code' in error)) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', `The request body is larger than ${limit} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        'The Content-Type header is not a media type; send the body as application/json.',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', 'The request body is not as long as its Content-Length says.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('not_found', 'Nothing exists at this path.');
    default:
      // A client that went away mid-body, and Fastify's other 4xx: the request's fault, said as such.
      return 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500
        ? new AppError('bad_request', 'The request could not be read.')
        : error;
  }
}

export async function createApiApp(options: ApiAppOptions): Promise<{ app: FastifyInstance; server?: Server }> {
  const { API_MAX_BODY_BYTES: limit, API_BODY_TIMEOUT_MS: bodyTimeoutMs, API_RESPONSE_CHECK } = env();
  const checkAnswers = API_RESPONSE_CHECK === 'on';
  let server: Server | undefined;
  const app = Fastify({
    logger: false,
    bodyLimit: limit,
    requestIdHeader: false,
    genReqId: (req) => requestIdFrom(headerValue(req.headers['x-request-id'])),
    // HEAD is mounted with the rest and answered as GET without its body where the route has a GET (below).
    exposeHeadRoutes: false,
    // The server's stop (server/server.ts) lets requests in flight and on open connections finish.
    return503OnClosing: false,
    // Ids are checked by our rule (≤ 128 characters, 404 past it), not refused with Fastify's 414.
    routerOptions: { maxParamLength: 65_536 },
    rewriteUrl: (req) => routingTarget(req.url ?? '/'),
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    ...(options.server
      ? {
          serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
            server = options.server?.create(handler);
            if (!server) throw new Error('no server');
            return server;
          },
        }
      : {}),
  });
  app.decorateRequest('auth', null);
  app.decorateRequest('client', null);
  app.decorateRequest('responseText', null);

  app.removeAllContentTypeParsers();
  // Every body is read as text and parsed by the operation. JSON is named as well as the catch-all because Fastify
  // remembers the parser it found for a named type, and parses the Content-Type header again on every request otherwise.
  const asText: FastifyBodyParser<string> = (_request, body, done) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);

  const sendError = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = fromFastify(error, limit);
    if (!reply.hasHeader('x-request-id')) {
      // Refused before our first hook ran (Fastify's router): the headers every API answer carries.
      reply.header('x-request-id', request.id);
      reply.headers(NO_ROUTE_HEADERS);
    }
    if (apiError instanceof AppError && (apiError.code === 'payload_too_large' || apiError.code === 'request_timeout')) {
      options.abandonBody?.(request.raw, reply);
    }
    const config = request.routeOptions.config as { route?: Route } | undefined;
    const answer = errorResponse(apiError, config?.route, request.id, log.child({ requestId: request.id }));
    request.responseText = answer.body;
    void reply.code(answer.status).headers(answer.headers).send(answer.body);
  };

  // A body has bodyTimeoutMs to arrive. One sweep over the bodies being read, not a timer and two listeners per request
  // (a measurable share of a quote): a late body is refused within a tenth of the limit (a second at most) of it.
  const reading = new Map<Readable, number>();
  const sweep = () => {
    const now = performance.now();
    for (const [payload, deadline] of reading) {
      if (payload.readableEnded || payload.destroyed) reading.delete(payload);
      // Only once Fastify reads it (its reader listens for errors; until then the token is being checked): the error
      // ends the reading. A body never read leaves the map with its answer (onResponse).
      else if (now >= deadline && payload.listenerCount('error') > 0) {
        reading.delete(payload);
        payload.emit(
          'error',
          new AppError('request_timeout', `The request body did not arrive within ${bodyTimeoutMs / 1000} s.`),
        );
      }
    }
  };
  const sweeper = setInterval(sweep, Math.min(1_000, Math.max(25, Math.floor(bodyTimeoutMs / 10)))).unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    reading.clear();
    done();
  });
  app.addHook('onRequest', async (request, reply) => {
    // The body's deadline runs from here (not a preParsing hook of its own: one hook fewer on every request).
    const headers = request.headers;
    if (
      (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
      headers['transfer-encoding'] !== undefined
    ) {
      // performance.now(): a wall clock stepped forward would refuse a body still in time.
      reading.set(request.raw, performance.now() + bodyTimeoutMs);
    }
    const client = options.client(request.raw);
    request.client = client;
    reply.header('x-request-id', request.id);
    const config = request.routeOptions.config;
    reply.headers(config.routeHeaders ?? NO_ROUTE_HEADERS);
    if (client.secure) reply.header('strict-transport-security', HSTS);
    // Every OPTIONS is a preflight, answered before the token (a browser sends none): 204 with the headers above.
    // Safari waits for a body on a 204 without Content-Length.
    if (request.method === 'OPTIONS') return reply.code(204).header('content-length', '0').send();

    const { route, environment, access } = config;
    if (!route || !environment) return;
    if (!route.methods[methodOf(request.method, route)]) {
      const allow = config.routeHeaders?.['access-control-allow-methods'] ?? 'OPTIONS';
      throw new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, { allowed: allow });
    }
    // Checked before the token: no caller has an id like this, and no query should ever see one.
    const params = request.params as Record<string, string>;
    for (const name in params) {
      const value = params[name];
      if (value === undefined || !isPlausiblePathParam(value)) {
        throw new AppError('not_found', `Nothing exists at this path: its ${name} is not an id this service issues.`);
      }
    }
    if (route.testOnly && environment !== 'test') {
      throw new AppError(
        'not_found',
        `No API operation at ${sentPathOf(request)}; the simulator exists on the test path (/version-test/api/1.1) only.`,
      );
    }
    const methodAccess = access?.[methodOf(request.method, route)];
    if (!methodAccess) throw new Error(`no access rule for ${request.method} ${route.pattern}`);
    request.auth = await authenticateRequest(
      route,
      methodAccess,
      environment,
      headerValue(request.headers.authorization),
      client.address,
      (auth) => {
        request.auth = auth;
      },
      (rate) => {
        reply.headers(rateLimitHeaders(rate));
      },
    );
  });

  app.addHook('onResponse', (request, reply, done) => {
    // Answered: its body, read or refused, is no longer waited for (the payload the sweep holds is the raw request).
    reading.delete(request.raw);
    const sent = sentPathOf(request);
    log.info(
      {
        requestId: request.id,
        method: request.method,
        path: sent,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
        accountId: request.auth?.accountId,
      },
      'request',
    );
    recordApiRequest(request, reply.statusCode, sent, reply.elapsedTime);
    done();
  });

  app.setErrorHandler((error: unknown, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    sendError(new AppError('not_found', `No API operation at ${sentPathOf(request)}.`), request, reply);
  });

  const accessByRoute = new Map(apiRoutes().map((route) => [route, Object.freeze(routeAccess(route))]));
  for (const [base, environment] of apiBases()) {
    for (const route of apiRoutes()) {
      const allow = [...Object.keys(route.methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])), 'OPTIONS'].join(', ');
      app.route({
        method: [...METHODS],
        url: base + route.pattern,
        config: {
          route,
          environment,
          access: accessByRoute.get(route),
          routeHeaders: Object.freeze({ ...apiHeaders(allow), ...deprecationHeaders(route.deprecation) }),
        },
        handler: async (request, reply) => {
          const definition = route.methods[methodOf(request.method, route)];
          const operation = definition && (checkAnswers ? checkedHandler(definition) : definition.handler);
          const auth = request.auth;
          if (!operation || !auth) throw new Error(`no operation or caller for ${request.method} ${route.pattern}`);
          // A plain object, no accessors: a getter here made V8 keep every request's objects past the young generation.
          const context: OperationContext = {
            environment,
            auth,
            params: request.params as Record<string, string>,
            query: new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''),
            search: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
            accept: headerValue(request.headers.accept),
            requestId: request.id,
            origin: {
              actor: { kind: 'api_token', tokenId: auth.tokenId },
              address: request.client?.address ?? null,
              userAgent: headerValue(request.headers['user-agent']) ?? null,
            },
            json: () => {
              try {
                return Promise.resolve(parseJsonBody(request.body as string | undefined));
              } catch (error) {
                return Promise.reject(error instanceof Error ? error : new Error(String(error)));
              }
            },
          };
          const key = idempotencyKeyOf(request.method, request.headers['idempotency-key'], auth);
          if (key === undefined) {
            const result = await operation(context);
            if (result.file) return sendFile(reply, result.file);
            reply.code(result.status ?? 200);
            if (result.headers) reply.headers(result.headers);
            reply.header('content-type', 'application/json');
            request.responseText = result.body === undefined ? '' : JSON.stringify(result.body);
            return reply.send(request.responseText);
          }
          const answer = await onceForKey(
            {
              key,
              accountId: auth.accountId,
              environment,
              method: request.method,
              path: request.url,
              body: typeof request.body === 'string' ? request.body : '',
            },
            async () => {
              const result = await operation(context);
              return {
                status: result.status ?? 200,
                body: result.body === undefined ? '' : JSON.stringify(result.body),
                headers: result.headers ?? {},
              };
            },
          );
          request.responseText = answer.body;
          return reply.code(answer.status).headers(answer.headers).header('content-type', 'application/json').send(answer.body);
        },
      });
    }
  }
  await app.ready();
  return { app, server };
}

// Not logged: requests with no account to show them to (no token, a wrong one, an ops token), and the log's own reads,
// which would fill it with themselves.
function recordApiRequest(request: FastifyRequest, status: number, sent: string, ms: number): void {
  const routed = pathOf(request.url);
  const found = apiBases().find(([base]) => routed === base || routed.startsWith(`${base}/`));
  if (!found) return;
  const [base, environment] = found;
  // Refused before the token was checked (404, 405, an id no id can be): the caller if its token is known already.
  const auth =
    request.auth ??
    (status === 404 || status === 405 ? recentlyValidCaller(headerValue(request.headers.authorization), environment) : undefined);
  if (!auth || auth.kind === 'ops') return;
  if (request.routeOptions.config.route?.unlogged && request.method === 'GET') return;
  if (status === 429 && !shouldRecordRefusal(auth.tokenId)) return;
  const requestBody = keptBody(typeof request.body === 'string' ? request.body : null);
  const responseBody = keptBody(request.responseText);
  // A body refused unread (413, 408): the size it announced.
  const announced = Number(request.headers['content-length']);
  const q = request.url.indexOf('?');
  recordRequest({
    requestId: request.id,
    accountId: auth.accountId,
    environment: auth.environment,
    source: 'api',
    method: request.method,
    // The client's path where it names the same base (only its undecodable segments differ), else the routed one.
    path: (sent.startsWith(`${base}/`) ? sent : routed).slice(base.length),
    query: q < 0 ? '' : request.url.slice(q + 1),
    status,
    durationMs: ms,
    tokenId: auth.tokenId,
    clientAddress: request.client?.address ?? null,
    userAgent: headerValue(request.headers['user-agent']),
    requestBody: requestBody.body,
    requestBytes:
      requestBody.body === null && Number.isSafeInteger(announced) && announced > 0
        ? Math.min(announced, 2_147_483_647)
        : requestBody.bytes,
    responseBody: responseBody.body,
    responseBytes: responseBody.bytes,
    atMs: Date.now() - ms,
  });
}

function sendFile(reply: FastifyReply, file: NonNullable<OperationResult['file']>): FastifyReply {
  reply.code(200).header('content-type', file.contentType).header('content-disposition', contentDisposition(file));
  // A stream is read as the client takes it: Fastify pipes it with backpressure and ends the body on its error.
  if (file.bytes instanceof ReadableStream)
    return reply.header('cache-control', 'no-store').send(Readable.fromWeb(file.bytes as never));
  if (isSpilled(file.bytes)) return reply.header('content-length', String(file.bytes.size)).send(file.bytes.stream());
  const bytes = fileBytes(file.bytes);
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (body.length <= FILE_PIECE_BYTES) return reply.send(body);
  // A large document goes to the socket a piece at a time, as the client takes it: handed over whole, the kernel
  // copied megabytes in one write on the serving thread, and the quotes waiting behind it felt each one.
  return reply.header('content-length', String(body.length)).send(Readable.from(pieces(body), { objectMode: false }));
}

const FILE_PIECE_BYTES = 256 * 1024;

function* pieces(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += FILE_PIECE_BYTES) yield body.subarray(at, at + FILE_PIECE_BYTES);
}
