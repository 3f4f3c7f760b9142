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

// What the production server's node:http side adds around the API app (lib/http/api-app.ts): who is
// asking, what becomes of a refused body, and the last-resort answer for an error that escaped.

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The client's address (X-Forwarded-For only from trusted proxies) and whether it came over TLS. */
export function nodeClient(req: IncomingMessage): { address: string | undefined; secure: boolean } {
  const socket = req.socket;
  return {
    address: clientAddress(headerValue(req.headers['x-forwarded-for']), socket.remoteAddress),
    secure: arrivedOverTls(
      headerValue(req.headers['x-forwarded-proto']),
      socket.remoteAddress,
      'encrypted' in socket && socket.encrypted === true,
    ),
  };
}

/** Past this many bytes of a refused body the connection is cut rather than drained. */
export const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * A refused body (413, 408) is answered at once. The rest is discarded unbuffered so that a client
 * still uploading can read the answer (closing under it turns the answer into an EPIPE for most
 * HTTP clients); beyond DRAIN_LIMIT the connection is cut. Fastify marks such an answer
 * `Connection: close`; kept only when the declared rest is past the limit.
 */
export function discardRest(req: IncomingMessage, reply: Pick<FastifyReply, 'header' | 'removeHeader'>): void {
  if (!drainable(req.headers['content-length'])) {
    reply.header('connection', 'close');
    return;
  }
  reply.removeHeader('connection');
  drainRest(req);
}

/** Whether a body of this declared length is drained rather than cut (none, or one that is no number: drained, and cut past the limit). */
export function drainable(declaredLength: string | null | undefined): boolean {
  return !(Number(declaredLength ?? 0) > DRAIN_LIMIT);
}

/** How long a body past DRAIN_LIMIT is still read and thrown away before the connection is cut. */
export const LINGER_MS = 2_000;

/**
 * Reads the rest of a body nobody will read and throws it away: DRAIN_LIMIT bytes, then for LINGER_MS more, then the
 * stream is destroyed. Not at the limit: a reset while the client is still sending makes its kernel throw away the
 * answer it has received and not yet read (a chunked 40 MB upload lost its 413 so in CI), so a client that reads
 * only once it has sent everything gets time to finish and read it (nginx's lingering close, bounded the same way).
 * Both ways in use it: the production server's refused bodies (above) and the payload `next start`'s route
 * handlers gave to inject() (next-adapter.ts).
 */
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

/**
 * A server's last resort, for an error that escaped every handler (the API app's and Next's): still
 * the one envelope, with a request id the log line carries too. Ends the response whatever its state.
 */
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

/**
 * A request target that is neither a path nor an absolute URL (`OPTIONS *`, `GET *`): answered here, since Next's
 * handler cannot make a URL of it. `OPTIONS *` asks what the server supports; anything else on it is a bad request.
 * Returns whether it answered.
 */
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
