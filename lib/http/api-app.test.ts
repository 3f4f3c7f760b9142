import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasMalformedEscape, isPlausiblePathParam } from './path-params';

// The API app's router (Fastify's, lib/http/api-app.ts) on paths that cannot name anything: answered
// before any token or database is needed, so no database here. What was matchRoute's unit test.

const base = '/version-test/api/1.1';
let app: FastifyInstance;

beforeAll(async () => {
  process.env.DATABASE_URL ??= 'postgresql://unused@127.0.0.1:1/unused';
  const { createApiApp } = await import('./api-app');
  ({ app } = await createApiApp({ client: () => ({ address: '203.0.113.7', secure: false }) }));
}, 120_000);
afterAll(() => app?.close());

const get = (url: string, method: 'GET' | 'POST' = 'GET') => app.inject({ method, url });
const envelope = (response: { body: string }) =>
  JSON.parse(response.body) as { error: { code: string; message: string; request_id: string } };

describe('routing', () => {
  it('decodes a path id: a plausible one reaches the token check', async () => {
    const response = await get(`${base}/webhooks/we_abc%2D1`);
    expect(response.statusCode).toBe(401);
    expect(envelope(response).error.code).toBe('unauthorized');
  });

  it.each([
    ['%ZZ', 'id'],
    ['%', 'id'],
    ['%E0%A4', 'id'],
    ['%ED%A0%80', 'id'], // a lone surrogate, as UTF-8 would spell it
    ['%00', 'id'],
    ['a%0Ab', 'id'],
    ['%7F', 'id'],
    ['%C2%85', 'id'], // C1 control (NEL)
    ['%D7%90%E2%80%8F', 'id'], // RTL and a mark: no id has them
    ['a%20b', 'id'],
    ['x'.repeat(129), 'id'],
  ])('answers %s as no id: 404 before the token, without throwing', async (segment, name) => {
    for (const [method, path] of [
      ['GET', `/webhooks/${segment}`],
      ['GET', `/webhooks/${segment}/deliveries`],
      ['POST', `/webhooks/${segment}/test`],
      ['POST', `/webhooks/${segment}/rotate-secret`],
    ] as const) {
      const response = await get(base + path, method);
      expect(response.statusCode, path).toBe(404);
      expect(envelope(response).error.code).toBe('not_found');
      expect(envelope(response).error.message).toContain(`its ${name} is not an id`);
    }
  });

  it('names a bad delivery id by its name', async () => {
    const response = await get(`${base}/webhooks/we_1/deliveries/%00/redeliver`, 'POST');
    expect(response.statusCode).toBe(404);
    expect(envelope(response).error.message).toContain('its deliveryId is not an id');
  });

  it('never answers 5xx, and every answer is the envelope, whatever the path', async () => {
    const segment = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '%',
        '%Z',
        '%ZZ',
        '%00',
        '%ED%A0%80',
        '%C0%AF',
        'webhooks',
        'deliveries',
        'redeliver',
        'wf',
        'rate',
        '..',
        '.',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { maxLength: 6 }), async (segments) => {
        const url = `${base}/${segments.map((s) => s.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c).replace(/%/g, '%25'))).join('/')}`;
        const response = await get(url);
        expect(response.statusCode, url).toBeLessThan(500);
        expect(envelope(response).error.request_id).toBe(response.headers['x-request-id']);
      }),
      { numRuns: 500 },
    );
  });

  it.each(['%ZZ', '%00', '%ZZ/deliveries', '%00/test', 'we_1/deliveries/%ZZ/redeliver'])(
    'answers /webhooks/%s with a 404 envelope, its request id and the route CORS headers (no token needed to see it)',
    async (rest) => {
      const method = rest.endsWith('test') || rest.endsWith('redeliver') ? 'POST' : 'GET';
      const response = await get(`${base}/webhooks/${rest}`, method);
      expect(response.statusCode).toBe(404);
      const body = envelope(response);
      expect(body.error.code).toBe('not_found');
      expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      expect(body.error.request_id).toBe(response.headers['x-request-id']);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toMatch(/OPTIONS$/);
      expect(response.headers['access-control-allow-methods']).not.toBe('OPTIONS');
    },
  );

  it('answers an unknown path with 404 and the default CORS headers, and a wrong method with 405 and Allow', async () => {
    const missing = await get(`${base}/no/such/thing`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-methods']).toBe('OPTIONS');
    const wrong = await get(`${base}/wf/rate`);
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST, OPTIONS');
    expect(envelope(wrong).error.code).toBe('method_not_allowed');
  });

  it('answers a declared length over the limit with 413 before reading, and a short body with 400', async () => {
    const tooLarge = await app.inject({
      method: 'POST',
      url: `${base}/nothing`,
      headers: { 'content-length': String(6 * 1024 * 1024) },
      payload: '{}',
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(envelope(tooLarge).error.code).toBe('payload_too_large');
  });
});

describe('what Fastify answers itself, in our envelope or with our headers', () => {
  it('reads any media type as the JSON text (curl -d), and refuses a Content-Type that is no media type with 415', async () => {
    const form = await app.inject({
      method: 'POST',
      url: `${base}/wf/rate`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '{}',
    });
    expect(form.statusCode).toBe(401); // read on to the token check, not refused for its type
    // Checked when the body is read: after the token on a route (401 first), so here on a path that needs none.
    const garbage = await app.inject({ method: 'POST', url: `${base}/nothing`, headers: { 'content-type': '/' }, payload: '{}' });
    expect(garbage.statusCode).toBe(415);
    expect(envelope(garbage).error.code).toBe('unsupported_media_type');
    expect(garbage.headers['x-request-id']).toBe(envelope(garbage).error.request_id);
  });

  it('answers a preflight on a route with its methods, and OPTIONS on no route with the default CORS headers', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: `${base}/webhooks`,
      headers: { origin: 'https://shipper.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['x-content-type-options']).toBe('nosniff');
    const nowhere = await app.inject({ method: 'OPTIONS', url: `${base}/no/such/thing` });
    expect(nowhere.statusCode).toBe(204);
    expect(nowhere.headers['access-control-allow-methods']).toBe('OPTIONS');
  });

  it('answers JSON as application/json with its charset', async () => {
    const missing = await get(`${base}/no/such/thing`);
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('path parameters', () => {
  it('keeps ids we issue and refuses what no id can be', () => {
    expect(isPlausiblePathParam('MAN-7K3Q9X2M4T8V6W1Z')).toBe(true);
    expect(isPlausiblePathParam('msg_' + 'a'.repeat(64))).toBe(true);
    expect(isPlausiblePathParam('0e0f7f52-3b5c-4c5e-9a55-6f1c1c2c9d11')).toBe(true);
    expect(isPlausiblePathParam('')).toBe(false);
    expect(isPlausiblePathParam('a b')).toBe(false);
  });
  it('refuses lone surrogates that arrive already decoded', () => {
    expect(isPlausiblePathParam('a\ud800b')).toBe(false);
    expect(isPlausiblePathParam('a\u0000b')).toBe(false);
  });
});

describe('hasMalformedEscape', () => {
  it('finds escapes that cannot be decoded, and only those', () => {
    expect(hasMalformedEscape('/api/1.1/webhooks/we_1')).toBe(false);
    expect(hasMalformedEscape('/api/1.1/webhooks/%00')).toBe(false);
    expect(hasMalformedEscape('/api/1.1/webhooks/a%20b')).toBe(false);
    expect(hasMalformedEscape('/api/1.1/webhooks/%ZZ/deliveries')).toBe(true);
    expect(hasMalformedEscape('/x/%E0%A4')).toBe(true);
    expect(hasMalformedEscape('/x/%')).toBe(true);
  });
});
