import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { log } from '@/lib/log';
import { AppError } from '@/lib/errors/app-error';
import { arrivedOverTls, clientAddress } from './client-address';
import { corsHeaders } from './cors';
import { errorBody } from './errors';
export { answerClientError } from './client-error';

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

type Client = { address: string | undefined; secure: boolean };

// A keep-alive connection's requests mostly repeat its forwarding headers: the answer is kept per socket for the
// headers it was worked out from, so parsing the addresses is paid once per connection, not once per request.
const clientBySocket = new WeakMap<object, { forwardedFor: string | null; forwardedProto: string | null; client: Client }>();

export function nodeClient(req: IncomingMessage): Client {
  const socket = req.socket;
  const forwardedFor = headerValue(req.headers['x-forwarded-for']);
  const forwardedProto = headerValue(req.headers['x-forwarded-proto']);
  const known = clientBySocket.get(socket);
  if (known && known.forwardedFor === forwardedFor && known.forwardedProto === forwardedProto) return known.client;
  const client = Object.freeze({
    address: clientAddress(forwardedFor, socket.remoteAddress),
    secure: arrivedOverTls(forwardedProto, socket.remoteAddress, 'encrypted' in socket && socket.encrypted === true),
  });
  clientBySocket.set(socket, { forwardedFor, forwardedProto, client });
  return client;
}

export const DRAIN_LIMIT = 16 * 1024 * 1024;

// A refused body (413, 408) is answered at once and the rest drained: closing under a client still uploading turns the
// answer into an EPIPE. Fastify's `Connection: close` stays only when the declared rest is past DRAIN_LIMIT.
export function discardRest(req: IncomingMessage, reply: Pick<FastifyReply, 'header' | 'removeHeader'>): void {
  if (!drainable(req.headers['content-length'])) {
    reply.header('connection', 'close');
    return;
  }
  reply.removeHeader('connection');
  drainRest(req);
}

export function drainable(declaredLength: string | null | undefined): boolean {
  return !(Number(declaredLength ?? 0) > DRAIN_LIMIT);
}

export const LINGER_MS = 2_000;

// Past DRAIN_LIMIT, linger before destroying: a reset while the client still sends makes its kernel discard the answer
// it has not yet read (nginx's lingering close, bounded the same way).
export function drainRest(body: Readable): void {
  let drained = 0;
  let lingering = false;
  // An abandoned reader (the body parser, inject()'s request) may listen for 'readable', which would keep resume() from flowing.
  body.removeAllListeners('readable');
  body.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT && !lingering) {
      lingering = true;
      setTimeout(() => body.destroy(), LINGER_MS).unref();
    }
  });
  body.on('error', () => undefined);
  body.resume();
}

export function sendServerFailure(res: ServerResponse, error: unknown): void {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  log.error({ err: error, requestId }, 'server failed a request');
  const body = errorBody(
    new AppError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact us.`),
    requestId,
  );
  if (res.writableEnded) return;
  // A handler that failed after sending its headers: the status line is no longer ours to set.
  if (res.headersSent) return void res.end();
  res.writeHead(500, { ...corsHeaders('OPTIONS'), 'content-type': 'application/json', 'x-request-id': requestId });
  res.end(JSON.stringify(body));
}

// `OPTIONS *` and the like are answered here: Next's handler cannot make a URL of them.
export function answerOddTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? '/';
  if (target.startsWith('/') || /^https?:\/\//i.test(target)) return false;
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const allow = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
  const headers = { ...corsHeaders(allow), allow, 'x-request-id': requestId };
  if (req.method === 'OPTIONS' && target === '*') {
    res.writeHead(204, headers);
    res.end();
    return true;
  }
  const body = JSON.stringify(
    errorBody(new AppError('bad_request', 'The request target must be a path such as /api/1.1/wf/rate.'), requestId),
  );
  res.writeHead(400, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
  return true;
}
