import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { hashToken } from '@/lib/auth/tokens';
import { baseUrl, call, expectError, newAccount, pathFor, type TestAccount } from './support/api';
import { rawExchange } from './support/raw-socket';
import { rateSampleAll } from './support/samples';

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Acme');
});

describe('transport, as design.md decides it', () => {
  it('answers with JSON, CORS and a request id', async () => {
    const result = await call('/wf/rate', { token: acme.tokens.test, body: rateSampleAll() });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.headers.get('access-control-allow-origin')).toBe('*');
    expect(result.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('parses JSON whatever the Content-Type, as curl -d sends it', async () => {
    const result = await call('/wf/rate', {
      token: acme.tokens.test,
      rawBody: JSON.stringify(rateSampleAll()),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(result.status).toBe(200);
    expect(result.json.rates.length).toBeGreaterThan(0);
  });

  it('answers OPTIONS preflight without a token', async () => {
    const response = await fetch(baseUrl + pathFor('live', '/wf/manifest'), {
      method: 'OPTIONS',
      headers: { origin: 'https://shipper.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  });

  it('the OpenAPI document answers CORS preflight and is the same under both base paths', async () => {
    const preflight = await fetch(`${baseUrl}/api/1.1/openapi.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const [live, test_] = await Promise.all(
      ['/api/1.1/openapi.json', '/version-test/api/1.1/openapi.json'].map((path) => fetch(baseUrl + path)),
    );
    expect([live.status, test_.status]).toEqual([200, 200]);
    expect(await test_.json()).toEqual(await live.json());
  });

  it('keeps an incoming x-request-id', async () => {
    const result = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleAll(),
      headers: { 'x-request-id': 'client-trace-12345' },
    });
    expect(result.headers.get('x-request-id')).toBe('client-trace-12345');
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('refuses %s with 405 and Allow', async (method) => {
    const result = await call('/wf/package', { token: acme.tokens.test, method, body: method === 'GET' ? undefined : {} });
    const error = expectError(result, 405, 'method_not_allowed');
    expect(error.message).toContain('POST');
    expect(result.headers.get('allow')).toBe('POST, OPTIONS');
    expect(result.json.IsSuccess).toBe(false);
  });

  it('answers the bare base paths with 404 in the envelope, not an HTML page', async () => {
    // Found by fuzz-webhooks.test.ts: an id of ".." resolves to the base path itself.
    for (const env of ['test', 'live'] as const) {
      for (const path of ['', '/', '/webhooks/..']) {
        const result = await call(path, { env, method: 'GET', token: acme.tokens[env] });
        expectError(result, 404, 'not_found');
        expect(result.headers.get('content-type')).toMatch(/^application\/json/);
      }
    }
  });

  it('answers an unknown API path with 404 in the envelope', async () => {
    const result = await call('/wf/track', { token: acme.tokens.test, body: {} });
    expectError(result, 404, 'not_found');
    expect(result.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['not JSON', '{"weight": 5,'],
    ['empty', ''],
  ])('refuses a body that is %s with 400', async (_label, rawBody) => {
    const result = await call('/wf/manifest', { token: acme.tokens.test, rawBody });
    expectError(result, 400, 'invalid_json');
    expect(result.json.IsSuccess).toBe('false');
  });

  it('refuses a body over 5 MB with 413', async () => {
    const rawBody = JSON.stringify({ ...rateSampleAll(), padding: 'x'.repeat(5 * 1024 * 1024) });
    const result = await call('/wf/rate', { token: acme.tokens.test, rawBody });
    expectError(result, 413, 'payload_too_large');
  });
});

describe('authentication', () => {
  it('refuses a missing token with 401 and WWW-Authenticate', async () => {
    const result = await call('/wf/rate', { token: null, body: rateSampleAll() });
    expectError(result, 401, 'unauthorized');
    expect(result.headers.get('www-authenticate')).toBe('Token');
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['well-formed but unknown', `ck_test_${'A'.repeat(43)}`],
  ])('refuses a %s token with 401', async (_label, token) => {
    const result = await call('/wf/rate', { token, body: rateSampleAll() });
    expectError(result, 401, 'unauthorized');
  });

  it('accepts Bearer as well as Token', async () => {
    const result = await call('/wf/rate', { headers: { authorization: `Bearer ${acme.tokens.test}` }, body: rateSampleAll() });
    expect(result.status).toBe(200);
  });

  it('refuses a test token on the live path, and the reverse, with wrong_environment', async () => {
    expectError(
      await call('/wf/rate', { env: 'live', token: acme.tokens.test, body: rateSampleAll() }),
      401,
      'wrong_environment',
    );
    expectError(
      await call('/wf/rate', { env: 'test', token: acme.tokens.live, body: rateSampleAll() }),
      401,
      'wrong_environment',
    );
    expect((await call('/wf/rate', { env: 'live', token: acme.tokens.live, body: rateSampleAll() })).status).toBe(200);
  });

  it('refuses a revoked token at once, even after it was cached', async () => {
    const shipper = await newAccount('Revoked');
    expect((await call('/wf/rate', { token: shipper.tokens.test, body: rateSampleAll() })).status).toBe(200);
    await db.apiToken.update({ where: { tokenHash: hashToken(shipper.tokens.test) }, data: { revokedAt: new Date() } });
    // The revocation reaches the server's cache through a database notification.
    let status = 200;
    for (let i = 0; i < 20 && status === 200; i++) {
      status = (await call('/wf/rate', { token: shipper.tokens.test, body: rateSampleAll() })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
  });

  it('records when a token was last used', async () => {
    const shipper = await newAccount('LastUsed');
    await call('/wf/rate', { token: shipper.tokens.test, body: rateSampleAll() });
    let row = null;
    for (let i = 0; i < 20 && !row?.lastUsedAt; i++) {
      row = await db.apiToken.findUnique({ where: { tokenHash: hashToken(shipper.tokens.test) }, select: { lastUsedAt: true } });
      if (!row?.lastUsedAt) await new Promise((r) => setTimeout(r, 100));
    }
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a token spends its burst', async () => {
    const shipper = await newAccount('Busy');
    // The test server allows a burst of 300 per token, refilled at 5 a second.
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 400 }, () => call('/wf/package', { token: shipper.tokens.test, rawBody: '{}' })),
    );
    const refill = Math.ceil(((Date.now() - started) / 1000) * 5);
    // Exactly two answers: the burst (and what refilled meanwhile) reaches the operation, which refuses the
    // empty body with 422; every other request is limited. A limit of 1, or none, fails here.
    const answered = results.filter((r) => r.status === 422).length;
    const limited = results.filter((r) => r.status === 429);
    expect(answered + limited.length).toBe(400);
    expect(answered).toBeGreaterThanOrEqual(300);
    expect(answered).toBeLessThanOrEqual(300 + refill);
    const error = expectError(limited[0], 429, 'rate_limited');
    expect(error.message).toMatch(/retry/i);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another token is not affected.
    expect((await call('/wf/rate', { token: acme.tokens.test, body: rateSampleAll() })).status).toBe(200);
  });
});

describe('RateLimit headers', () => {
  it("every authenticated answer says the token's policy and how much of it is left, counting down", async () => {
    const shipper = await newAccount('Counting');
    const first = await call('/wf/rate', { token: shipper.tokens.test, body: rateSampleAll() });
    const second = await call('/wf/rate', { token: shipper.tokens.test, body: rateSampleAll() });
    // The test server allows a burst of 300 per token, refilled at 5 a second: a window of 60 s.
    expect(first.headers.get('ratelimit-policy')).toBe('"token";q=300;w=60');
    const left = (r: typeof first) => Number(/r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]);
    expect(left(first)).toBe(299);
    expect(left(second)).toBe(298);
    expect(first.headers.get('ratelimit')).toMatch(/^"token";r=\d+;t=\d+$/);
    expect(first.headers.get('access-control-expose-headers')).toContain('RateLimit');
    // An error answer after authentication carries them too.
    const invalid = await call('/wf/rate', { token: shipper.tokens.test, body: {} });
    expect(invalid.status).toBe(422);
    expect(left(invalid)).toBe(297);
  });
});

describe('guessing tokens', () => {
  it('answers 429 to an address after 60 failed authentications in a minute, and never refuses a good token from it', async () => {
    // A documentation address (RFC 5737), only ever a header value here.
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const headers = { 'x-forwarded-for': address };
    const bad = `ck_test_${'B'.repeat(43)}`;
    for (let i = 0; i < 60; i++) {
      expectError(await call('/wf/rate', { token: bad, body: rateSampleAll(), headers }), 401, 'unauthorized');
    }
    const blocked = await call('/wf/rate', { token: bad, body: rateSampleAll(), headers });
    expectError(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // One misconfigured job behind a shared NAT must not stop a shipper's production on the same address.
    for (let i = 0; i < 3; i++) {
      expect((await call('/wf/rate', { token: acme.tokens.test, body: rateSampleAll(), headers })).status).toBe(200);
    }
    expectError(await call('/wf/rate', { token: null, body: rateSampleAll(), headers }), 429, 'rate_limited');
  });
});

// Next makes a URL of every target: these reach it in `next start` mode too (server/next-request-target.ts).
describe('request targets that are no path', () => {
  it('answers OPTIONS * with 204, Allow and a request id', async () => {
    const answer = await rawExchange(baseUrl, ['OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    expect(answer.status).toBe(204);
    expect(answer.headers.allow).toContain('POST');
    expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it.each(['GET', 'POST', 'DELETE', 'HEAD'])('answers %s * with the 400 envelope', async (method) => {
    const answer = await rawExchange(baseUrl, [
      `${method} * HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    ]);
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    if (method !== 'HEAD')
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('path') });
  });
});
