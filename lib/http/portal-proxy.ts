import { randomUUID } from 'node:crypto';
import {
  Agent,
  request,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { log } from '@/lib/log';
import { AppError } from '@/lib/errors/app-error';
import { errorBody, errorHeaders, httpStatus } from './errors';
import { PEER_HEADER } from './peer-address';

// Under `npm start` the portal (Next) runs in a process of its own (server/portal.ts) on a private Unix socket, and the
// API workers, which accept every connection, pass it the paths that are not the API's. Next loaded in a process costs
// each API request there a share of the serving thread (docs/decisions/quote-cost.md); passing a portal request on
// costs that request one local round trip instead. The request and the answer are streamed both ways, unchanged but
// for the hop-by-hop headers, which belong to each connection.

/** Hop-by-hop headers (RFC 9110 §7.6.1), and `Expect`: each server answers a 100-continue on its own connection. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

/**
 * Kept whatever the client's Connection header names. The stamped peer and the Host, which the portal needs; and
 * Content-Length, the body's framing: dropped, a body of a GET, HEAD, DELETE or OPTIONS (which Node does not chunk)
 * would go unframed and the portal would read it as the next request on that connection, someone else's.
 */
const KEPT = new Set([PEER_HEADER, 'host', 'content-length']);

export interface PortalProxyOptions {
  socketPath: string;
  /** How long a request waits for the portal to listen (at the start, or while a crashed portal is restarted). */
  waitMs?: number;
  /** How often it tries again meanwhile. */
  retryEveryMs?: number;
}

export interface PortalProxy {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Closes the idle connections to the portal; requests in flight finish. */
  close(): void;
}

export function portalProxy(options: PortalProxyOptions): PortalProxy {
  const { socketPath } = options;
  const waitMs = options.waitMs ?? 30_000;
  const retryEveryMs = options.retryEveryMs ?? 100;
  // Idle connections to the portal close after 30 s, before the portal's own keep-alive (65 s) would close them
  // under a request being sent.
  const agent = new Agent({ keepAlive: true, timeout: 30_000, scheduling: 'lifo' });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const headers = forwardedHeaders(req);
    const deadline = Date.now() + waitMs;
    // A body can be sent once: a request with one is tried again only if none of it has left.
    const contentLength = req.headers['content-length'];
    const bodiless = req.headers['transfer-encoding'] === undefined && (contentLength === undefined || contentLength === '0');
    let upstream: ClientRequest | undefined;
    let settled = false;
    let retried = false;

    const fail = (error: unknown, waited: boolean) => {
      if (settled) return;
      settled = true;
      upstream?.destroy();
      if (res.headersSent) return void res.destroy();
      const requestId = `req_${randomUUID().replaceAll('-', '')}`;
      log.error({ err: error, requestId, path: req.url }, waited ? 'portal: not listening' : 'portal: request failed');
      const failure = new AppError('service_unavailable', 'The portal is briefly unavailable; retry shortly.', {
        retryAfterSeconds: 1,
      });
      res.writeHead(httpStatus(failure), {
        ...errorHeaders(failure),
        'content-type': 'application/json',
        'x-request-id': requestId,
      });
      res.end(JSON.stringify(errorBody(failure, requestId)));
    };

    const attempt = () => {
      if (settled) return;
      let sending = false;
      let current: ClientRequest;
      try {
        current = request({ socketPath, agent, method: req.method, path: req.url, headers, setHost: false });
      } catch (error) {
        // A target or header Node's client would not send (its parser let it in): the envelope, not a thrown listener.
        return fail(error, false);
      }
      upstream = current;
      const send = () => {
        sending = true;
        req.pipe(current);
      };
      current.once('socket', (socket: Socket) => {
        if (socket.connecting) socket.once('connect', send);
        else send();
      });
      let answered = false;
      current.once('response', (answer) => {
        answered = true;
        if (settled) return void answer.destroy();
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders(answer));
        answer.pipe(res);
        // The portal went away in the middle of an answer: the client must not take the part for the whole.
        answer.once('close', () => {
          if (answer.complete) settled = true;
          else fail(new Error('the portal closed the answer early'), false);
        });
        answer.on('error', () => undefined); // its close, just above, says what happened
      });
      current.on('error', (error: NodeJS.ErrnoException) => {
        // Once answered, the answer's own end says how it went (Next may answer before it has read the whole body).
        if (settled || answered) return;
        req.unpipe(current);
        // Not listening (starting, or being replaced): the connection was refused before anything was sent.
        const notListening = !sending && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED');
        if (notListening) {
          if (Date.now() < deadline) return void setTimeout(attempt, retryEveryMs).unref();
          return fail(error, true);
        }
        // A connection that broke under a request with no body (a kept-alive one the portal closed as it was reused, or
        // a portal killed as it accepted): tried once more. Once only: a request that itself kills the portal is not
        // sent to every portal restarted after it. A request with a body is never sent twice.
        const broken = error.code === 'ECONNRESET' || error.code === 'EPIPE';
        if (broken && bodiless && !retried) {
          retried = true;
          return attempt();
        }
        fail(error, false);
      });
    };

    // The client went away, or was answered before the portal read its whole body: the request to the portal ends too
    // (the portal stops working on it, and the connection is not held open for a body that will never come), and the
    // rest of the client's body, if any, is read and dropped.
    res.once('close', () => {
      if (res.writableFinished && (upstream === undefined || upstream.writableFinished)) return;
      settled = true;
      if (upstream) {
        req.unpipe(upstream);
        upstream.destroy();
      }
      if (!req.complete) req.resume();
    });
    attempt();
  };

  return { handle, close: () => agent.destroy() };
}

/** The request's headers less the hop-by-hop ones, with the client's address as Next would have set it. */
function forwardedHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const named = connectionTokens(req.headers.connection);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    // The stamped peer and the Host go on whatever the client's Connection header names: the portal needs both.
    if (value === undefined || HOP_BY_HOP.has(name) || (named.has(name) && !KEPT.has(name))) continue;
    headers[name] = value;
  }
  // A chunked body is sent chunked again. Dropped with the other hop-by-hop headers, it would go unframed for the
  // methods Node does not chunk by default (DELETE, OPTIONS, GET), and the portal would read it as a next request.
  if (req.headers['transfer-encoding'] !== undefined) headers['transfer-encoding'] = 'chunked';
  // Next fills X-Forwarded-For from its socket when the client sent none; its socket is now the Unix one.
  if (headers['x-forwarded-for'] === undefined && req.socket.remoteAddress) headers['x-forwarded-for'] = req.socket.remoteAddress;
  return headers;
}

/** The answer's headers as received (repeated ones, such as Set-Cookie, kept apart) less the hop-by-hop ones. */
function answerHeaders(answer: IncomingMessage): string[] {
  const named = connectionTokens(answer.headers.connection);
  const raw = answer.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

function connectionTokens(value: string | string[] | undefined): Set<string> {
  if (!value) return new Set();
  const joined = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    joined
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
}
