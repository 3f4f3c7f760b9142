import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CheckedDestination } from './ssrf-guard';

export const RESPONSE_LOG_BYTES = 2_048;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  retryAfter: string | null;
  /** The headers sent (the attempt log shows them); null when nothing was sent. */
  requestHeaders: Record<string, string> | null;
}

// Keep-alive: a pooled socket is connected to an address checked when it was opened, so reuse is as safe.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 8, timeout: 30_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 8, timeout: 30_000 }),
};

/**
 * POSTs to the checked address, never re-resolving the name; Host and the TLS name stay the URL's. Never throws
 * (failures come back as `error`); redirects are not followed.
 */
export function sendWebhook(options: {
  destination: CheckedDestination;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborting it cuts the attempt short at once (the connection is closed): see worker.ts, heartbeats. */
  signal?: AbortSignal;
}): Promise<SendResult> {
  const { destination, body, timeoutMs } = options;
  const { url } = destination;
  const started = performance.now();
  const isHttps = url.protocol === 'https:';
  // Only ever a literal address the guard approved: a name here would be resolved again, unchecked.
  if (isIP(destination.address) === 0) {
    return Promise.resolve({
      statusCode: null,
      durationMs: 0,
      responseBody: null,
      error: 'no checked address to connect to',
      retryAfter: null,
      requestHeaders: null,
    });
  }
  const requestHeaders: Record<string, string> = {
    host: url.host,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'Carrier-Webhooks/1.0',
    ...options.headers,
  };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs' | 'requestHeaders'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, durationMs: Math.round(performance.now() - started), requestHeaders });
    };
    const request = (isHttps ? https : http).request({
      method: 'POST',
      host: destination.address,
      family: destination.family,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      agent: agents[url.protocol as 'http:' | 'https:'],
      ...(isHttps ? { servername: destination.hostname } : {}),
      headers: requestHeaders,
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, responseBody: null, error: `timed out after ${timeoutMs} ms`, retryAfter: null });
    }, timeoutMs);
    function onAbort() {
      request.destroy();
      finish({
        statusCode: null,
        responseBody: null,
        error: `cut short: ${String(options.signal?.reason ?? 'aborted')}`,
        retryAfter: null,
      });
    }
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, responseBody: null, error: describeError(error), retryAfter: null });
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean) => {
        if (truncated) response.destroy();
        finish({
          statusCode: response.statusCode ?? null,
          responseBody: storableText(Buffer.concat(chunks).subarray(0, RESPONSE_LOG_BYTES)),
          error: null,
          retryAfter: headerText(response.headers['retry-after']),
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_LOG_BYTES) done(true);
      });
      response.on('end', () => done(false));
      response.on('error', (error: NodeJS.ErrnoException) => {
        // The status line arrived: the receiver answered, even if the body was cut off.
        if (response.statusCode) done(false);
        else finish({ statusCode: null, responseBody: null, error: describeError(error), retryAfter: null });
      });
    });
    request.end(body);
  });
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

function describeError(error: NodeJS.ErrnoException): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'connection timed out',
    EPIPE: 'connection closed while sending',
    CERT_HAS_EXPIRED: 'TLS certificate has expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
    ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
  };
  const code = error.code ?? '';
  return `${known[code] ?? error.message}${code ? ` (${code})` : ''}`.slice(0, 500);
}

/** Text a PostgreSQL text column accepts: invalid UTF-8 and NUL become U+FFFD. */
export function storableText(bytes: Buffer): string {
  return bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');
}
