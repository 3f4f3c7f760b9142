// The API's operations on Fastify, as a move to it would mount them: Fastify's router with every API
// route, @fastify/cors, Fastify's body reader and bodyLimit with our JSON parser in place of its own
// (the JSON shape caps must run before JSON.parse), auth in an onRequest hook (before the body is
// read, as the pipeline does); request ids, the envelope and the request log line from
// bench/frameworks/common.ts (the same lib functions as lib/http/api-steps.ts).
// Run by bench/servers.ts; env: DATABASE_URL, PORT.
import { createServer } from 'node:http';
import fastifyCors from '@fastify/cors';
import Fastify from 'fastify';
import type { AuthContext } from '@/lib/auth/authenticate-token';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { answerClientError } from '@/lib/http/client-error';
import { arrivedOverTls, clientAddress } from '@/lib/http/client-address';
import { API_SECURITY_HEADERS, HSTS } from '@/lib/http/security-headers';
import type { OperationContext } from '@/lib/http/types';
import {
  CORS_SETTINGS,
  authenticate,
  configureServer,
  envelope,
  headerValue,
  log,
  mountedRoutes,
  parseJsonText,
  port,
  queryOf, searchOf,
  requestIdFrom,
  stopOnSignal,
  type MountedRoute,
} from './common';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    environment?: MountedRoute['environment'];
    isSuccess?: MountedRoute['isSuccess'];
  }
}

const maxSize = env().API_MAX_BODY_BYTES;

const app = Fastify({
  logger: false,
  bodyLimit: maxSize,
  // Our request-id rule, not Fastify's counter.
  requestIdHeader: false,
  genReqId: (req) => requestIdFrom(headerValue(req.headers['x-request-id'])),
  serverFactory: (handler) => createServer(handler),
  clientErrorHandler: answerClientError,
});
app.decorateRequest('auth', null);

// Our parser for JSON: the shape caps before JSON.parse (Fastify's own parser has no such limits).
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxSize }, (_request, body, done) => {
  try {
    done(null, parseJsonText(typeof body === 'string' ? body : body.toString('utf8')));
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)), undefined);
  }
});

app.addHook('onRequest', async (request, reply) => {
  reply.header('x-request-id', request.id);
  reply.headers(API_SECURITY_HEADERS);
  const socket = request.raw.socket;
  if (arrivedOverTls(headerValue(request.headers['x-forwarded-proto']), socket.remoteAddress, 'encrypted' in socket && socket.encrypted === true)) {
    reply.header('strict-transport-security', HSTS);
  }
});

// Between our two onRequest hooks: a preflight, which @fastify/cors answers from its own hook, carries
// our headers, and an answer refused by auth carries the CORS headers.
await app.register(fastifyCors, {
  origin: '*',
  methods: CORS_SETTINGS.methods,
  allowedHeaders: CORS_SETTINGS.allowHeaders,
  exposedHeaders: CORS_SETTINGS.exposeHeaders,
  maxAge: CORS_SETTINGS.maxAge,
  // The pipeline answers any OPTIONS with 204, not only a well-formed preflight.
  strictPreflight: false,
});

// Auth before the body is read, as the pipeline does.
app.addHook('onRequest', async (request) => {
  const environment = request.routeOptions.config.environment;
  if (environment && request.method !== 'OPTIONS') {
    request.auth = await authenticate(
      headerValue(request.headers.authorization),
      environment,
      clientAddress(headerValue(request.headers['x-forwarded-for']), request.raw.socket.remoteAddress),
    );
  }
});

app.addHook('onResponse', async (request, reply) => {
  log.info(
    { requestId: request.id, method: request.method, path: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime), accountId: request.auth?.accountId },
    'request',
  );
});

app.setErrorHandler((error: unknown, request, reply) => {
  const answer = envelope(fromFastify(error), request.id, request.routeOptions.config.isSuccess);
  void reply.code(answer.status).headers(answer.headers).send(answer.body);
});

app.setNotFoundHandler((request, reply) => {
  const answer = envelope(new AppError('not_found', `No API operation at ${request.url.split('?')[0]}.`), request.id);
  void reply.code(answer.status).headers(answer.headers).send(answer.body);
});

/** Fastify's own refusals (body too large, another media type, …) as our error codes. */
function fromFastify(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof Error) || !('code' in error)) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', `The request body is larger than ${maxSize} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'The request body is empty; send a JSON object.');
    default:
      return 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode < 500 ? new AppError('bad_request', error.message) : error;
  }
}

for (const route of mountedRoutes()) {
  app.route({
    method: route.method,
    url: route.path,
    config: { environment: route.environment, isSuccess: route.isSuccess },
    handler: async (request, reply) => {
      if (!request.auth) throw new AppError('unauthorized', 'Send your API token as "Authorization: Token <token>".');
      const params: Record<string, string> = {};
      if (request.params && typeof request.params === 'object') {
        for (const [name, value] of Object.entries(request.params)) if (typeof value === 'string') params[name] = value;
      }
      const context: OperationContext = {
        environment: route.environment,
        auth: request.auth,
        params,
        query: queryOf(request.url),
        search: searchOf(request.url),
        requestId: request.id,
        origin: { actor: { kind: 'api_token', tokenId: request.auth.tokenId }, address: request.ip, userAgent: request.headers['user-agent'] ?? null },
        json: () => {
          if (request.body === undefined) return Promise.reject(new AppError('invalid_json', 'The request body is empty; send a JSON object.'));
          return Promise.resolve(request.body);
        },
      };
      const result = await route.operation(context);
      return reply
        .code(result.status ?? 200)
        .headers({ ...result.headers, 'content-type': 'application/json' })
        .send(result.body === undefined ? '' : JSON.stringify(result.body));
    },
  });
}

await app.ready();
configureServer(app.server);
await app.listen({ port: port(), host: '127.0.0.1' });
stopOnSignal(() => app.close());
