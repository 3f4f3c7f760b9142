import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress } from './client-address';
import { collectBody } from './read-body';
import { handleApiRequest } from './pipeline';
import { isApiPath } from './routes';

/**
 * Serves an API request straight from node:http, outside Next's request pipeline. Returns false
 * for paths that are not the API's, so a server can hand them on (to Next's handler, say).
 */
export async function handleNodeApiRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  // The OpenAPI document is public and served by its Next route (app/api/1.1/openapi.json), not the token-checked pipeline.
  if (!isApiPath(url.pathname) || url.pathname.endsWith('/openapi.json')) return false;
  const response = await handleApiRequest({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: { get: (name) => headerValue(req.headers[name.toLowerCase()]) },
    readBody: (limit, timeoutMs) =>
      collectBody(req, {
        limit,
        timeoutMs,
        declaredLength: headerValue(req.headers['content-length']),
        abort: () => discardRest(req, res),
      }),
    remoteAddress: clientAddress(headerValue(req.headers['x-forwarded-for']), req.socket.remoteAddress),
  });
  res.writeHead(response.status, response.headers);
  res.end(response.body);
  return true;
}

/** Past this many bytes of a refused body the connection is cut rather than drained. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

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
