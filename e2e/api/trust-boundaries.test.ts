import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newAccount, pathFor, type TestAccount } from './support/api';
import { rateSampleAll } from './support/samples';

// Issue 11, findings 2 and 7, through the run's real server (every TEST_SERVER: the production
// server, and `next start`'s route handlers, both on the one Fastify app). The server trusts 127.0.0.1
// as a proxy (TRUSTED_PROXIES=127.0.0.1/32, e2e/api/support/global-setup.ts): a test connecting from
// 127.0.0.1 plays our proxy, and its rightmost X-Forwarded-For entry is the client. A test
// connecting from 127.0.0.2 (all of 127/8 is loopback on Linux) is a stranger, whose
// X-Forwarded-For must count for nothing.

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Trust');
});

const octet = () => Math.floor(Math.random() * 254) + 1;
const BAD_TOKEN = `ck_test_${'Q'.repeat(43)}`;

interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request from a chosen local address (node:http lets us bind the client socket). */
function fromAddress(
  localAddress: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResult> {
  const url = new URL(baseUrl + path);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', ...options.headers },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const codeOf = (result: RawResult) => (JSON.parse(result.body) as { error?: { code?: string } }).error?.code;

describe('finding 2: a rotated X-Forwarded-For does not escape the failed-token limiter', () => {
  it('from our proxy, only the entry it appended counts: 60 failures with a new spoofed entry each, then 429 (a good token still served)', async () => {
    // An address of this file's own range (100.64.0.0/16): other files fail authentications from theirs.
    const client = `100.64.${octet()}.${octet()}`;
    const spoofed = () => `${octet()}.${octet()}.${octet()}.${octet()}`;
    for (let i = 0; i < 60; i++) {
      const headers = { 'x-forwarded-for': `${spoofed()}, ${client}` };
      expectError(await call('/wf/rate', { token: BAD_TOKEN, body: rateSampleAll(), headers }), 401, 'unauthorized');
    }
    const blocked = await call('/wf/rate', {
      token: BAD_TOKEN,
      body: rateSampleAll(),
      headers: { 'x-forwarded-for': `${spoofed()}, ${client}` },
    });
    expectError(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const good = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleAll(),
      headers: { 'x-forwarded-for': `${spoofed()}, ${client}` },
    });
    expect(good.status).toBe(200);
    // The next client behind the same proxy is not affected.
    const other = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleAll(),
      headers: { 'x-forwarded-for': `${client}, 100.65.${octet()}.${octet()}` },
    });
    expect(other.status).toBe(200);
  });

  it('from a peer that is no trusted proxy, X-Forwarded-For is ignored: its socket address is limited', async () => {
    const body = JSON.stringify(rateSampleAll());
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const result = await fromAddress('127.0.0.2', pathFor('test', '/wf/rate'), {
        headers: { authorization: `Token ${BAD_TOKEN}`, 'x-forwarded-for': `203.0.113.${octet()}` },
        body,
      });
      statuses.push(result.status);
    }
    expect(statuses).toEqual(Array.from({ length: 60 }, () => 401));
    // A new forwarded address changes nothing: the socket's address is the one blocked.
    const blocked = await fromAddress('127.0.0.2', pathFor('test', '/wf/rate'), {
      headers: { authorization: `Token ${BAD_TOKEN}`, 'x-forwarded-for': `203.0.113.${octet()}` },
      body,
    });
    expect(blocked.status).toBe(429);
    expect(codeOf(blocked)).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A valid token from the blocked address is still served; another socket address is someone else.
    const valid = await fromAddress('127.0.0.2', pathFor('test', '/wf/rate'), {
      headers: { authorization: `Token ${acme.tokens.test}` },
      body,
    });
    expect(valid.status).toBe(200);
    const other = await fromAddress('127.0.0.3', pathFor('test', '/wf/rate'), {
      headers: { authorization: `Token ${BAD_TOKEN}` },
      body,
    });
    expect(other.status).toBe(401);
  });
});

describe('finding 7: every API answer carries nosniff and no-store; HSTS only over TLS', () => {
  const expectSecurityHeaders = (headers: Headers, what: string) => {
    expect(headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(headers.get('cache-control'), what).toBe('no-store');
  };

  it('on successes, errors, preflights, and the answers that hold a webhook secret', async () => {
    const rate = await call('/wf/rate', { token: acme.tokens.test, body: rateSampleAll() });
    expect(rate.status).toBe(200);
    expectSecurityHeaders(rate.headers, 'rate 200');

    const created = await call('/webhooks', {
      token: acme.tokens.test,
      body: { url: 'https://93.184.215.14/hooks/trust', events: ['package.sorting'] },
    });
    expect(created.status).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    expectSecurityHeaders(created.headers, 'POST /webhooks 201');

    const rotated = await call(`/webhooks/${created.json.id}/rotate-secret`, { token: acme.tokens.test });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expectSecurityHeaders(rotated.headers, 'rotate-secret 200');

    expectError(await call('/wf/rate', { token: null, body: rateSampleAll() }), 401, 'unauthorized');
    expectSecurityHeaders((await call('/wf/rate', { token: null, body: rateSampleAll() })).headers, '401');
    const missing = await call('/no/such/operation', { token: acme.tokens.test, method: 'GET' });
    expectError(missing, 404, 'not_found');
    expectSecurityHeaders(missing.headers, '404');
    const wrongMethod = await call('/wf/rate', { token: acme.tokens.test, method: 'GET' });
    expectError(wrongMethod, 405, 'method_not_allowed');
    expectSecurityHeaders(wrongMethod.headers, '405');
    const invalid = await call('/wf/rate', { token: acme.tokens.test, rawBody: '{' });
    expectError(invalid, 400, 'invalid_json');
    expectSecurityHeaders(invalid.headers, '400');

    const preflight = await fetch(baseUrl + pathFor('live', '/webhooks'), {
      method: 'OPTIONS',
      headers: { origin: 'https://shipper.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expectSecurityHeaders(preflight.headers, 'OPTIONS 204');

    // Plain HTTP from no proxy that says otherwise: no HSTS.
    expect(rate.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends Strict-Transport-Security when our trusted proxy says the request came over TLS, and not when a stranger says so', async () => {
    const viaProxy = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleAll(),
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const viaProxyError = await call('/wf/rate', {
      token: null,
      body: rateSampleAll(),
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaProxyError.status).toBe(401);
    expect(viaProxyError.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');

    const stranger = await fromAddress('127.0.0.4', pathFor('test', '/wf/rate'), {
      headers: { authorization: `Token ${acme.tokens.test}`, 'x-forwarded-proto': 'https' },
      body: JSON.stringify(rateSampleAll()),
    });
    expect(stranger.status).toBe(200);
    expect(stranger.headers['strict-transport-security']).toBeUndefined();
  });
});
