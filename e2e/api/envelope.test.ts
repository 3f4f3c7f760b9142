import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/api';

// Every answer of the API and the portal API is the error envelope with x-request-id, 405s with Allow: paths no route
// has (dot segments too), methods a route lacks, and the public OpenAPI document's.

async function answer(method: string, path: string) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

function envelope(got: { status: number; headers: Headers; text: string }, status: number, code: string) {
  expect(got.status, got.text.slice(0, 200)).toBe(status);
  expect(got.headers.get('content-type') ?? '').toContain('application/json');
  expect(got.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  expect(JSON.parse(got.text).error.code).toBe(code);
}

/** A request line as sent, dot segments and all (fetch would normalise them); HTTP/1.0, so the body comes unchunked. */
function rawGet(path: string): Promise<{ status: number; body: string; head: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.0\r\nHost: x\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...body] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body: body.join('\r\n\r\n') });
    });
  });
}

describe('the portal API answers with the envelope', () => {
  it('a path no route has: 404 envelope for every method, never the HTML page', async () => {
    for (const path of [
      '/portal-api/nope',
      '/portal-api/webhooks/we_1/deliveries/att_1/redeliver/more',
      '/portal-api/packages/TN1/label/extra',
    ]) {
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) envelope(await answer(method, path), 404, 'not_found');
    }
  });

  it('dot segments, plain and percent-encoded, never reach the HTML page from a portal API path', async () => {
    for (const path of [
      '/portal-api/./nope',
      '/portal-api/x/../nope',
      '/portal-api/%2e%2e/portal-api/nope',
      '/portal-api/%2E/nope',
    ]) {
      const got = await rawGet(path);
      expect(got.status, `${path}: ${got.head}`).toBe(404);
      expect(got.head.toLowerCase()).toContain('application/json');
      expect(JSON.parse(got.body).error.code).toBe('not_found');
    }
  });

  it('a method a route lacks: 405 envelope with Allow', async () => {
    const got = await answer('PUT', '/portal-api/packages');
    envelope(got, 405, 'method_not_allowed');
    expect(got.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const redeliver = await answer('DELETE', '/portal-api/webhooks/we_1/deliveries/att_1/redeliver');
    envelope(redeliver, 405, 'method_not_allowed');
    expect(redeliver.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('the OpenAPI document: POST, PUT, PATCH and DELETE are 405 envelopes with Allow; GET still serves it', async () => {
    for (const base of ['/api/1.1', '/version-test/api/1.1']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const got = await answer(method, `${base}/openapi.json`);
        envelope(got, 405, 'method_not_allowed');
        expect(got.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      }
    }
    const doc = await answer('GET', '/api/1.1/openapi.json');
    expect(doc.status).toBe(200);
    expect(JSON.parse(doc.text).openapi).toMatch(/^3\./);
  });
});
