import 'server-only';

/**
 * A streamed CSV download with its headers (both exports). Compression is the framework's (Next compresses a route
 * handler's response for a client that takes gzip, and drops a Content-Encoding the handler sets, so a handler
 * cannot compress its own body).
 */
export function csvResponse(stream: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
