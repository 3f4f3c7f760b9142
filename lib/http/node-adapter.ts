import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '@/lib/log';
import { arrivedOverTls, clientAddress } from './client-address';
import { corsHeaders } from './cors';
import { AppError } from '@/lib/errors/app-error';
import { errorBody } from './errors';
import { DRAIN_LIMIT, readNodeBody } from './read-body';
export { answerClientError } from './client-error';
import { handleApiRequest } from './pipeline';
import { isApiPath } from './routes';

/**
 * Serves an API request straight from node:http, outside Next's request pipeline. Returns false
 * for paths that are not the API's, so a server can hand them on (to Next's handler, say).
 */
export async function handleNodeApiRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const { pathname, search } = splitTarget(req.url ?? '/');
  // The OpenAPI document is public and served by its Next route (app/api/1.1/openapi.json), not the token-checked pipeline.
  if (!isApiPath(pathname) || pathname.endsWith('/openapi.json')) return false;
  const response = await handleApiRequest({
    method: req.method ?? 'GET',
    path: pathname,
    query: new URLSearchParams(search),
    headers: { get: (name) => headerValue(req.headers[name.toLowerCase()]) },
    readBody: (limit, timeoutMs) =>
      readNodeBody(req, {
        limit,
        timeoutMs,
        declaredLength: headerValue(req.headers['content-length']),
        abort: () => discardRest(req, res),
      }),
    remoteAddress: clientAddress(headerValue(req.headers['x-forwarded-for']), req.socket.remoteAddress),
    secure: arrivedOverTls(
      headerValue(req.headers['x-forwarded-proto']),
      req.socket.remoteAddress,
      'encrypted' in req.socket && req.socket.encrypted === true,
    ),
  });
  res.writeHead(response.status, response.headers);
  res.end(response.bytes ?? response.body);
  return true;
}

/**
 * A server's last resort, for an error that escaped every handler (ours and Next's): still the
 * one envelope, with a request id the log line carries too. Ends the response whatever its state.
 */
export function sendServerFailure(res: ServerResponse, error: unknown): void {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  log.error({ err: error, requestId }, 'server failed a request');
  const body = errorBody(
    new AppError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact us.`),
    requestId,
  );
  sendEnvelope(res, 500, body, requestId);
}

/** The API-only servers' answer to a path that is not the API's. */
export function sendNotAnApiPath(res: ServerResponse): void {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  sendEnvelope(res, 404, errorBody(new AppError('not_found', 'Not an API path.'), requestId), requestId);
}

function sendEnvelope(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  if (res.writableEnded) return;
  // A handler that failed after sending its headers: the status line is no longer ours to set.
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...corsHeaders('OPTIONS'), 'content-type': 'application/json', 'x-request-id': requestId });
  res.end(JSON.stringify(body));
}

/** A plain path: no dot segments, percent-escapes, backslashes or doubled slashes for a URL parser to normalise. */
const PLAIN_PATH = /^\/(?!\/)(?:[A-Za-z0-9_~-]|\.(?![./]|$)|\/(?![./]|$))*$/;

/**
 * Path and query of a request target. A plain path (every API call there is) is taken as it is;
 * anything else goes through the WHATWG URL parser, as before, so that `/api/1.1/wf/./rate` or
 * `%2F` mean here what they mean to Next. Parsing a URL per request cost ~15 % of the rate
 * operation's throughput. A target that is no URL (`//x`) comes back as it is, which is no API path.
 */
export function splitTarget(target: string): { pathname: string; search: string } {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (PLAIN_PATH.test(path) && !target.includes('#', q))
    return { pathname: path, search: q < 0 || q === target.length - 1 ? '' : target.slice(q) };
  // `//` and the like are no URL at all (new URL throws): never an API path, so Next answers them.
  if (!URL.canParse(target, 'http://localhost')) return { pathname: path, search: '' };
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, search: url.search };
}

/**
 * A refused body (413, 408) is answered at once. The rest is discarded unbuffered so that a client
 * still uploading can read the answer (closing under it turns the answer into an EPIPE for most
 * HTTP clients); beyond DRAIN_LIMIT the connection is cut.
 */
function discardRest(req: IncomingMessage, res: ServerResponse): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > DRAIN_LIMIT) {
    res.setHeader('connection', 'close');
    return;
  }
  let drained = 0;
  // The abandoned body reader listens for 'readable', which would keep resume() from flowing.
  req.removeAllListeners('readable');
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
