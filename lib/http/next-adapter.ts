import 'server-only';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createApiApp } from './api-app';
import { drainable, drainRest } from './node-adapter';
import { hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from './path-params';
import { webRequestClient } from './request-client';

// Route handlers are this adapter and nothing else: the Web Request goes to the same Fastify app the
// production server serves the API with (lib/http/api-app.ts: its router, body reader with its
// limits, CORS), through Fastify's inject(), the body as a stream it reads with the same bodyLimit
// and deadline; the answer comes back as a Web Response. The route is found from the URL, so every
// route file exports the same thing. (docs/decisions/production-server.md, "The API on Fastify")

/** Who is asking, as webRequestClient found it: written by this adapter over anything the client sent. */
const CLIENT_HEADER = 'x-carrier-api-client';

let app: Promise<FastifyInstance> | undefined;

function apiApp(): Promise<FastifyInstance> {
  app ??= createApiApp({
    client: (raw: IncomingMessage) => {
      const value = raw.headers[CLIENT_HEADER];
      const [secure, address] = typeof value === 'string' ? [value.startsWith('1 '), value.slice(2)] : [false, undefined];
      return { address: address || undefined, secure };
    },
  }).then(({ app: instance }) => instance);
  return app;
}

/** Hop-by-hop headers of Fastify's answer that a Web Response must not carry. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const client = webRequestClient(request.headers);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers[CLIENT_HEADER] = `${client.secure ? '1' : '0'} ${client.address}`;
  const instance = await apiApp();
  const payload = request.body
    ? Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>)
    : undefined;
  const response = await instance.inject({
    method: request.method as 'GET',
    url: pathOf(request, url) + url.search,
    headers,
    ...(payload ? { payload } : {}),
    remoteAddress: client.address,
  });
  const answerHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) answerHeaders.append(name, item);
    else answerHeaders.set(name, String(value));
  }
  // A body refused (413, 408) or answered before it was read (401, 404 …) would stay in the connection, where Next
  // does not discard it: the next request on that keep-alive connection would wait behind it for ever, and cutting
  // the upload turns this answer into an EPIPE for the client. As the production server does (node-adapter.ts),
  // the rest is read and thrown away; a body declared past DRAIN_LIMIT closes the connection instead.
  if (payload && discardUnread(payload, request.headers.get('content-length')) === 'close')
    answerHeaders.set('connection', 'close');
  const status = response.statusCode;
  return new Response(status === 204 || status === 304 ? null : new Uint8Array(response.rawPayload), {
    status,
    headers: answerHeaders,
  });
}

function discardUnread(payload: Readable, declaredLength: string | null): 'drained' | 'close' {
  if (payload.readableEnded || payload.destroyed) return 'drained';
  if (!drainable(declaredLength)) {
    payload.destroy();
    return 'close';
  }
  drainRest(payload);
  return 'drained';
}

/**
 * The path as sent. A path Next could not decode arrives rewritten by proxy.ts to MALFORMED_PATH_ROUTE
 * with the original in a header; that header is believed only when it holds such a path, so a client
 * who sends it itself can reach nothing but the same 404.
 */
function pathOf(request: Request, url: URL): string {
  if (url.pathname !== MALFORMED_PATH_ROUTE) return url.pathname;
  const original = request.headers.get(MALFORMED_PATH_HEADER);
  return original !== null && hasMalformedEscape(original) ? original : url.pathname;
}

export const apiRouteHandlers = { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
