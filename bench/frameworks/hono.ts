// The API's operations on Hono (@hono/node-server), as a move to it would mount them: Hono's router
// with every API route, its CORS middleware (hono/cors) and body limit (hono/body-limit), the body
// read through the Web Request the adapter builds (c.req.text()); auth, request ids, the JSON shape
// caps, the envelope and the request log line from bench/frameworks/common.ts (the same lib
// functions as lib/http/api-steps.ts). Run by bench/servers.ts; env: DATABASE_URL, PORT.
import { createServer } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { StatusCode } from 'hono/utils/http-status';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { arrivedOverTls, clientAddress } from '@/lib/http/client-address';
import { API_SECURITY_HEADERS, HSTS } from '@/lib/http/security-headers';
import type { OperationContext } from '@/lib/http/types';
import {
  CORS_SETTINGS,
  authenticate,
  configureServer,
  envelope,
  log,
  mountedRoutes,
  parseJsonText,
  port,
  queryOf, searchOf,
  requestIdFrom,
  stopOnSignal,
  type MountedRoute,
} from './common';

type AppEnv = {
  Bindings: HttpBindings;
  Variables: { requestId: string; accountId: string | undefined; isSuccess: MountedRoute['isSuccess'] };
};

const app = new Hono<AppEnv>();
const maxSize = env().API_MAX_BODY_BYTES;

// Request id, security headers and the log line, around everything (errors included: Hono's
// compose answers a thrown error with onError before control comes back here).
app.use('*', async (c, next) => {
  const started = performance.now();
  const requestId = requestIdFrom(c.req.header('x-request-id'));
  c.set('requestId', requestId);
  c.header('x-request-id', requestId);
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) c.header(name, value);
  const socket = c.env.incoming.socket;
  if (arrivedOverTls(c.req.header('x-forwarded-proto'), socket.remoteAddress, 'encrypted' in socket && socket.encrypted === true)) {
    c.header('strict-transport-security', HSTS);
  }
  await next();
  log.info(
    { requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started), accountId: c.get('accountId') },
    'request',
  );
});

app.use(
  '*',
  cors({ origin: '*', allowMethods: CORS_SETTINGS.methods, allowHeaders: CORS_SETTINGS.allowHeaders, exposeHeaders: CORS_SETTINGS.exposeHeaders, maxAge: CORS_SETTINGS.maxAge }),
);

const limit = bodyLimit({
  maxSize,
  onError: () => {
    throw new AppError('payload_too_large', `The request body is larger than ${maxSize} bytes.`);
  },
});

for (const route of mountedRoutes()) {
  app.on(route.method, route.path, limit, async (c) => {
    c.set('isSuccess', route.isSuccess);
    const incoming = c.env.incoming;
    const auth = await authenticate(
      c.req.header('authorization'),
      route.environment,
      clientAddress(c.req.header('x-forwarded-for'), incoming.socket.remoteAddress),
    );
    c.set('accountId', auth.accountId);
    const context: OperationContext = {
      environment: route.environment,
      auth,
      params: c.req.param(),
      query: queryOf(incoming.url ?? ''),
      search: searchOf(incoming.url ?? ''),
      requestId: c.get('requestId'),
      origin: { actor: { kind: 'api_token', tokenId: auth.tokenId }, address: incoming.socket.remoteAddress ?? null, userAgent: c.req.header('user-agent') ?? null },
      json: async () => parseJsonText(await c.req.text()),
    };
    const result = await route.operation(context);
    return c.newResponse(result.body === undefined ? '' : JSON.stringify(result.body), statusCode(result.status ?? 200), {
      ...result.headers,
      'content-type': 'application/json',
    });
  });
}

app.notFound((c) => {
  const answer = envelope(new AppError('not_found', `No API operation at ${c.req.path}.`), c.get('requestId'));
  return c.newResponse(answer.body, statusCode(answer.status), answer.headers);
});

app.onError((error, c) => {
  const answer = envelope(error, c.get('requestId'), c.get('isSuccess'));
  return c.newResponse(answer.body, statusCode(answer.status), answer.headers);
});

function isStatusCode(status: number): status is StatusCode {
  return Number.isInteger(status) && status >= 100 && status <= 599;
}
function statusCode(status: number): StatusCode {
  return isStatusCode(status) ? status : 500;
}

const listener = getRequestListener(app.fetch);
const server = createServer((req, res) => void listener(req, res));
configureServer(server);
server.listen(port(), '127.0.0.1');
stopOnSignal(() => new Promise((resolve) => server.close(resolve)));
