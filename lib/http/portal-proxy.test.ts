import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { portalProxy, type PortalProxy } from './portal-proxy';

// A portal on a Unix socket and, in front of it, a server that passes everything to it, as an API worker does.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function socketPath(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-proxy-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'portal.sock');
}

async function listen(server: http.Server, where: string | number): Promise<void> {
  await new Promise<void>((resolve) => server.listen(where, () => resolve()));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
}

async function portalAt(where: string, handler: http.RequestListener): Promise<http.Server> {
  const portal = http.createServer(handler);
  await listen(portal, where);
  return portal;
}

async function front(where: string, options: { waitMs?: number } = {}): Promise<{ url: string; proxy: PortalProxy }> {
  const proxy = portalProxy({ socketPath: where, waitMs: options.waitMs ?? 2_000, retryEveryMs: 20 });
  cleanups.push(() => proxy.close());
  const server = http.createServer((req, res) => proxy.handle(req, res));
  await listen(server, 0);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, proxy };
}

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

describe('the portal proxy', () => {
  it('passes method, target, headers and body on, and the answer back, less the hop-by-hop headers', async () => {
    const where = socketPath();
    let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
    await portalAt(where, (req, res) => {
      void bodyOf(req).then((body) => {
        seen = { method: req.method, url: req.url, headers: req.headers, body };
        res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
        res.setHeader('x-answer', 'yes');
        res.setHeader('keep-alive', 'timeout=999');
        res.writeHead(201, 'Made');
        res.end('made it');
      });
    });
    const { url } = await front(where);
    // node:http, not fetch: fetch refuses to send a Connection header.
    const answer = await new Promise<{ status?: number; statusText?: string; headers: http.IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        const sent = http.request(`${url}/portal-api/things?x=%2F1`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            host: 'portal.example',
            cookie: 'session=abc',
            'x-carrier-peer': 'stamped',
            // A client naming the stamped peer header as hop-by-hop, to have it dropped on the way.
            connection: 'keep-alive, x-private, X-Carrier-Peer',
            'x-private': 'for this hop',
            'proxy-authorization': 'Basic secret',
          },
        });
        sent.once('error', reject);
        sent.once('response', (res) => {
          void bodyOf(res).then((body) =>
            resolve({ status: res.statusCode, statusText: res.statusMessage, headers: res.headers, body }),
          );
        });
        sent.end('{"name":"ü"}');
      },
    );
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Made');
    expect(answer.body).toBe('made it');
    expect(answer.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(answer.headers['x-answer']).toBe('yes');
    expect(answer.headers['keep-alive']).not.toBe('timeout=999');
    expect(seen).toMatchObject({ method: 'POST', url: '/portal-api/things?x=%2F1', body: '{"name":"ü"}' });
    expect(seen!.headers).toMatchObject({
      host: 'portal.example',
      cookie: 'session=abc',
      'x-carrier-peer': 'stamped',
      'content-type': 'application/json',
      'x-forwarded-for': expect.stringMatching(/127\.0\.0\.1$/),
    });
    expect(seen!.headers['x-private']).toBeUndefined();
    expect(seen!.headers['proxy-authorization']).toBeUndefined();
  });

  /** Sends `body` with each method and `headers` through the proxy; what the portal saw, one line a request. */
  async function throughTheProxy(methods: string[], headers: http.OutgoingHttpHeaders, body: string): Promise<string[]> {
    const where = socketPath();
    const seen: string[] = [];
    await portalAt(where, (req, res) => {
      void bodyOf(req).then((text) => {
        seen.push(`${req.method} ${req.url} ${JSON.stringify(text)}`);
        res.end('done');
      });
    });
    const { url } = await front(where);
    for (const method of methods) {
      const answer = await new Promise<string>((resolve, reject) => {
        const sent = http.request(`${url}/portal-api/things`, { method, headers });
        sent.once('error', reject);
        sent.once('response', (res) => void bodyOf(res).then(resolve));
        sent.end(body);
      });
      expect(answer).toBe('done');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    return seen;
  }

  it('sends a chunked body chunked again, whatever the method: it never reaches the portal as a request of its own', async () => {
    const smuggled = 'GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n';
    const methods = ['DELETE', 'OPTIONS', 'GET', 'POST'];
    const seen = await throughTheProxy(methods, { 'transfer-encoding': 'chunked' }, smuggled);
    expect(seen).toEqual(methods.map((method) => `${method} /portal-api/things ${JSON.stringify(smuggled)}`));
  });

  it('keeps a Content-Length the client names in Connection: the body stays framed, never a request of its own', async () => {
    const smuggled = 'POST /portal-api/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello';
    const methods = ['DELETE', 'OPTIONS', 'GET'];
    const headers = { connection: 'keep-alive, Content-Length', 'content-length': String(Buffer.byteLength(smuggled)) };
    const seen = await throughTheProxy(methods, headers, smuggled);
    expect(seen).toEqual(methods.map((method) => `${method} /portal-api/things ${JSON.stringify(smuggled)}`));
  });

  it('ends the request to the portal when the client is answered before the portal read its body', async () => {
    const where = socketPath();
    let portalClosed!: () => void;
    const closed = new Promise<void>((resolve) => (portalClosed = resolve));
    const portal = await portalAt(where, (req, res) => {
      req.socket.once('close', () => portalClosed());
      res.writeHead(404);
      res.end('early'); // answered without reading the body, as a page that does not exist is
    });
    portal.keepAliveTimeout = 65_000; // as server/portal.ts's
    const { url } = await front(where);
    const client = http.request(`${url}/nowhere`, { method: 'POST', headers: { 'content-length': '100000' } });
    cleanups.push(() => void client.destroy());
    client.once('error', () => undefined);
    const early = await new Promise<number>((resolve) => {
      client.once('response', (res) => {
        res.resume(); // read to its end, the client's request left open: it never sends the rest
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      client.write('abc');
    });
    expect(early).toBe(404);
    // Without the proxy ending it, the portal would hold this connection until its keep-alive or request timeout.
    const within = await Promise.race([closed.then(() => true), new Promise((resolve) => setTimeout(resolve, 1_000, false))]);
    expect(within).toBe(true);
  });

  it('sends a request that broke its connection (the portal died on it) once more at most, and never one with a body', async () => {
    const where = socketPath();
    const received: string[] = [];
    await portalAt(where, (req) => {
      received.push(`${req.method} ${req.url}`);
      req.socket.destroy();
    });
    const { url } = await front(where);
    expect((await fetch(`${url}/crashes-the-portal`)).status).toBe(503);
    expect((await fetch(`${url}/form`, { method: 'POST', body: 'name=x' })).status).toBe(503);
    expect(received).toEqual(['GET /crashes-the-portal', 'GET /crashes-the-portal', 'POST /form']);
  });

  it('tries a body-less request once more when a kept-alive connection breaks under it; never one with a body', async () => {
    const where = socketPath();
    const received: string[] = [];
    let breakNext = false;
    await portalAt(where, (req, res) => {
      received.push(`${req.method} ${req.url}`);
      if (breakNext) {
        breakNext = false;
        return void req.socket.destroy();
      }
      void bodyOf(req).then(() => res.end('answer'));
    });
    const { url } = await front(where);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => agent.destroy());
    const ask = (method: string, target: string, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = http.request(`${url}${target}`, { method, agent });
        sent.once('error', reject);
        sent.once('response', (res) => void bodyOf(res).then(() => resolve(res.statusCode ?? 0)));
        sent.end(body);
      });
    expect(await ask('GET', '/warm')).toBe(200);
    breakNext = true;
    expect(await ask('GET', '/page')).toBe(200);
    expect(await ask('GET', '/warm-again')).toBe(200);
    breakNext = true;
    expect(await ask('POST', '/form', 'name=x')).toBe(503);
    expect(received).toEqual(['GET /warm', 'GET /page', 'GET /page', 'GET /warm-again', 'POST /form']);
  });

  it('keeps an X-Forwarded-For the client sent, as Next would have', async () => {
    const where = socketPath();
    let forwardedFor: unknown;
    await portalAt(where, (req, res) => {
      forwardedFor = req.headers['x-forwarded-for'];
      res.end();
    });
    const { url } = await front(where);
    await fetch(`${url}/`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
    expect(forwardedFor).toBe('198.51.100.7');
  });

  it('holds requests, with their bodies, until a portal that starts late listens', async () => {
    const where = socketPath();
    const { url } = await front(where);
    const get = fetch(`${url}/sign-in`);
    const post = fetch(`${url}/portal-api/echo`, { method: 'POST', body: 'x'.repeat(100_000) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await portalAt(where, (req, res) => void bodyOf(req).then((body) => res.end(`${req.method} ${body.length}`)));
    expect(await (await get).text()).toBe('GET 0');
    expect(await (await post).text()).toBe('POST 100000');
  });

  it('answers 503 with the envelope and Retry-After when no portal listens in time', async () => {
    const { url } = await front(socketPath(), { waitMs: 200 });
    const started = Date.now();
    const answer = await fetch(`${url}/sign-in`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await answer.json()).toMatchObject({ error: { code: 'service_unavailable' } });
  });

  it('streams the answer as it comes, and stops the portal’s work when the client goes away', async () => {
    const where = socketPath();
    let portalSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (portalSawClose = resolve));
    await portalAt(where, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part\n');
      const more = setInterval(() => res.write('more\n'), 20);
      res.once('close', () => {
        clearInterval(more);
        portalSawClose();
      });
    });
    const { url } = await front(where);
    const controller = new AbortController();
    const answer = await fetch(`${url}/exports/stream`, { signal: controller.signal });
    const reader = answer.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('first part');
    controller.abort();
    await closed; // the test times out if the portal's response is never closed
  });

  it('cuts the client’s connection, rather than end the answer, when the portal dies in the middle of it', async () => {
    const where = socketPath();
    await portalAt(where, (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('only part of it');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const { url } = await front(where);
    const answer = await fetch(`${url}/documents/label.pdf`);
    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toThrow();
  });

  it('opens a new connection when the portal closed the idle one (a restart, its keep-alive)', async () => {
    const where = socketPath();
    let served = 0;
    const portal = await portalAt(where, (req, res) => {
      served += 1;
      res.end(`answer ${served}`);
    });
    const { url } = await front(where);
    expect(await (await fetch(`${url}/a`)).text()).toBe('answer 1');
    portal.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await (await fetch(`${url}/b`)).text()).toBe('answer 2');
  });
});
