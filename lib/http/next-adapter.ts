import 'server-only';
import { collectBody } from './read-body';
import { hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from './path-params';
import { handleApiRequest } from './pipeline';
import { webRequestClient } from './request-client';

// Route handlers are this adapter and nothing else: Web Request in, framework-free pipeline,
// Web Response out. The route is found from the URL, so every route file exports the same thing.
async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const client = webRequestClient(request.headers);
  let bodyRead = false;
  const response = await handleApiRequest({
    method: request.method,
    path: pathOf(request, url),
    query: url.searchParams,
    headers: request.headers,
    readBody: (limit, timeoutMs) =>
      collectBody((request.body ?? emptyStream()) as unknown as AsyncIterable<Uint8Array>, {
        limit,
        timeoutMs,
        declaredLength: request.headers.get('content-length'),
        abort: () => void request.body?.cancel().catch(() => undefined),
      }).then((body) => {
        bodyRead = true;
        return body;
      }),
    remoteAddress: client.address,
    secure: client.secure,
  });
  const headers = new Headers(response.headers);
  // A body left unread (refused at 413/408, or an answer given before it was read: 401, 404, 405 …) stays in the
  // connection, where Next does not discard it: the next request on that keep-alive connection would wait behind it
  // for ever. The production server drains it (node-adapter.ts); here the connection closes after this answer.
  if (!bodyRead && hasBody(request)) headers.set('connection', 'close');
  return new Response(response.status === 204 ? null : (response.bytes ?? response.body), { status: response.status, headers });
}

function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  return request.headers.has('transfer-encoding') || (length !== null && length.trim() !== '0');
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

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

export const apiRouteHandlers = { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
