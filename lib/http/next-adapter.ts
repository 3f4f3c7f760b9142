import 'server-only';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createApiApp } from './api-app';
import { drainable, drainRest } from './node-adapter';
import { hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from './path-params';
import { webRequestClient } from './request-client';

// Route handlers pass the Web Request to the production server's Fastify app through inject(), so its router, body
// limits and CORS apply alike (docs/decisions/production-server.md).

// Who is asking, as webRequestClient found it: written by this adapter over anything the client sent.
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
  // Next does not discard an unread body (refused, or answered before reading): the next request on that keep-alive
  // connection would wait behind it for ever. So drain it as node-adapter.ts does, or close past DRAIN_LIMIT.
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

// The header is believed only when it holds an undecodable path, so a client sending it itself reaches the same 404.
function pathOf(request: Request, url: URL): string {
  if (url.pathname !== MALFORMED_PATH_ROUTE) return url.pathname;
  const original = request.headers.get(MALFORMED_PATH_HEADER);
  return original !== null && hasMalformedEscape(original) ? original : url.pathname;
}

export const apiRouteHandlers = { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
