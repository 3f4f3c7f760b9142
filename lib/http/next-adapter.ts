import 'server-only';
import { collectBody } from './read-body';
import { handleApiRequest } from './pipeline';
import { webRequestClient } from './request-client';

// Route handlers are this adapter and nothing else: Web Request in, framework-free pipeline,
// Web Response out. The route is found from the URL, so every route file exports the same thing.
async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const client = webRequestClient(request.headers);
  const response = await handleApiRequest({
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    readBody: (limit, timeoutMs) =>
      collectBody((request.body ?? emptyStream()) as unknown as AsyncIterable<Uint8Array>, {
        limit,
        timeoutMs,
        declaredLength: request.headers.get('content-length'),
        abort: () => void request.body?.cancel().catch(() => undefined),
      }),
    remoteAddress: client.address,
    secure: client.secure,
  });
  return new Response(response.status === 204 ? null : response.body, { status: response.status, headers: response.headers });
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

export const apiRouteHandlers = { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle };
