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
        // The answer goes out at once; the connection closes after it, so the rest is never read.
        abort: () => res.setHeader('connection', 'close'),
      }),
    remoteAddress: clientAddress(headerValue(req.headers['x-forwarded-for']), req.socket.remoteAddress),
  });
  res.writeHead(response.status, response.headers);
  res.end(response.body);
  return true;
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
