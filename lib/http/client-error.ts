import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@/lib/errors/app-error';
import { corsHeaders } from './cors';
import { errorBody } from './errors';

// Node answers a request its parser refused (headers over 16 KB, a bad request line, a timeout) with a bare status line;
// this sends the envelope and closes. No pipeline behind it, since peer-address.ts installs it under `next start` too.
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, apiError] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, new AppError('headers_too_large', 'The request line and headers are over the 16 KB the server reads.')]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, new AppError('request_timeout', 'The request did not arrive in time.')]
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? [413, new AppError('payload_too_large', 'The chunk extensions are too large.')]
          : [400, new AppError('bad_request', 'The request is not valid HTTP.')];
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify(errorBody(apiError, requestId));
  const headers = {
    ...corsHeaders('OPTIONS'),
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
}
