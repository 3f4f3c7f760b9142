import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhook } from './send-webhook';

// A receiver on loopback only. The destination's name is one no DNS knows: reaching the receiver
// proves the request went to the checked address and never re-resolved the name.

let server: Server;
let port: number;
let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void;
const seen: { host?: string; body: string; headers: IncomingMessage['headers'] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ host: req.headers.host, body, headers: req.headers });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function destination(path = '/hook') {
  const url = new URL(`http://receiver.invalid:${port}${path}`);
  return { url, hostname: 'receiver.invalid', address: '127.0.0.1', family: 4 as const };
}

describe('sendWebhook', () => {
  it('connects to the checked address, keeps the Host of the URL, and sends the body and headers', async () => {
    handler = (_req, res) => res.writeHead(204).end();
    const result = await sendWebhook({
      destination: destination('/hook?a=1'),
      headers: { 'webhook-id': 'msg_1' },
      body: '{"a":1}',
      timeoutMs: 2_000,
    });
    expect(result).toMatchObject({ statusCode: 204, error: null });
    const last = seen.at(-1)!;
    expect(last.host).toBe(`receiver.invalid:${port}`);
    expect(last.body).toBe('{"a":1}');
    expect(last.headers['webhook-id']).toBe('msg_1');
    expect(last.headers['content-type']).toBe('application/json');
  });

  it('keeps the first 2 KB of the response', async () => {
    handler = (_req, res) => res.writeHead(500).end('x'.repeat(10_000));
    const result = await sendWebhook({ destination: destination(), headers: {}, body: '{}', timeoutMs: 2_000 });
    expect(result.statusCode).toBe(500);
    expect(result.responseBody).toHaveLength(2_048);
  });

  it('keeps a response PostgreSQL can store: NUL and invalid UTF-8 become U+FFFD', async () => {
    handler = (_req, res) => res.writeHead(200).end(Buffer.from([0x6f, 0x6b, 0x00, 0xff, 0xd8, 0x21]));
    const result = await sendWebhook({ destination: destination(), headers: {}, body: '{}', timeoutMs: 2_000 });
    expect(result.responseBody).toBe('ok\uFFFD\uFFFD\uFFFD!');
  });

  it('does not follow redirects and reports Retry-After', async () => {
    handler = (_req, res) => res.writeHead(307, { location: 'http://169.254.169.254/', 'retry-after': '7' }).end();
    const result = await sendWebhook({ destination: destination(), headers: {}, body: '{}', timeoutMs: 2_000 });
    expect(result).toMatchObject({ statusCode: 307, retryAfter: '7' });
    expect(seen.filter((s) => s.host?.startsWith('169.254'))).toHaveLength(0);
  });

  it('gives up after the timeout', async () => {
    handler = () => undefined; // never answers
    const result = await sendWebhook({ destination: destination(), headers: {}, body: '{}', timeoutMs: 200 });
    expect(result.statusCode).toBeNull();
    expect(result.error).toBe('timed out after 200 ms');
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = new URL(`http://127.0.0.1:${closedPort}/`);
    const result = await sendWebhook({
      destination: { url, hostname: '127.0.0.1', address: '127.0.0.1', family: 4 },
      headers: {},
      body: '{}',
      timeoutMs: 2_000,
    });
    expect(result.statusCode).toBeNull();
    expect(result.error).toContain('ECONNREFUSED');
  });
});
