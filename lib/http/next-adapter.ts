import 'server-only';
import { collectBody, DRAIN_LIMIT } from './read-body';
import { hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from './path-params';
import { handleApiRequest } from './pipeline';
import { webRequestClient } from './request-client';

// Route handlers are this adapter and nothing else: Web Request in, framework-free pipeline,
// Web Response out. The route is found from the URL, so every route file exports the same thing.
async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const client = webRequestClient(request.headers);
  const body = new OwnedBody(request);
  const response = await handleApiRequest({
    method: request.method,
    path: pathOf(request, url),
    query: url.searchParams,
    headers: request.headers,
    readBody: (limit, timeoutMs) =>
      collectBody(body.chunks(), {
        limit,
        timeoutMs,
        declaredLength: request.headers.get('content-length'),
        abort: () => body.discardRest(),
      }),
    remoteAddress: client.address,
    secure: client.secure,
  });
  const headers = new Headers(response.headers);
  // A body left unread (refused at 413/408, or answered before it was read: 401, 404, 405 …) would stay in the
  // connection, where Next does not discard it, and the next request on that keep-alive connection would wait
  // behind it for ever. As the production server does (node-adapter.ts), the rest is read and thrown away, so a
  // client still uploading can read this answer; a body declared past DRAIN_LIMIT closes the connection instead.
  if (body.discardRest() === 'close') headers.set('connection', 'close');
  return new Response(response.status === 204 ? null : (response.bytes ?? response.body), { status: response.status, headers });
}

/** The request body through one reader this adapter holds, so that what the pipeline leaves can be drained. */
class OwnedBody {
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private state: 'unread' | 'reading' | 'read' | 'discarding' = 'unread';

  constructor(private readonly request: Request) {}

  async *chunks(): AsyncGenerator<Uint8Array> {
    const reader = this.acquire();
    if (reader === null) return;
    this.state = 'reading';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
    this.state = 'read';
  }

  /** Starts throwing away whatever of the body is left; 'close' when the connection should close instead. */
  discardRest(): 'drained' | 'close' {
    if (this.state === 'read' || this.state === 'discarding') return 'drained';
    const length = this.request.headers.get('content-length');
    const reader = this.acquire();
    if (reader === null) return 'drained';
    this.state = 'discarding';
    if (length !== null && Number(length) > DRAIN_LIMIT) {
      void reader.cancel().catch(() => undefined);
      return 'close';
    }
    void drain(reader);
    return 'drained';
  }

  private acquire(): ReadableStreamDefaultReader<Uint8Array> | null {
    if (this.reader === null && this.request.body !== null && !this.request.body.locked) this.reader = this.request.body.getReader();
    return this.reader;
  }
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let drained = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
      if (drained > DRAIN_LIMIT) break;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => undefined);
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
