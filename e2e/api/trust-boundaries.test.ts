import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { linkFromOutbox } from '../outbox';
import { baseUrl, call, expectError, newAccount, pathFor, type TestAccount } from './support/api';
import { dropFreshDatabase, freshDatabase } from './support/processes';
import { rateSampleAll } from './support/samples';
import { startApp, type AppProcess } from './support/spawn';

// Who the server takes a client to be (X-Forwarded-For only from a trusted proxy), the limits that count clients, and
// the security headers on every answer. Two kinds of server:
//   - the run's own (every TEST_SERVER: the production server, and `next start`'s route handlers, both on the one
//     Fastify app), which trusts 127.0.0.1 as a proxy (TRUSTED_PROXIES=127.0.0.1/32, support/global-setup.ts): a test
//     connecting from 127.0.0.1 plays our proxy, and its rightmost X-Forwarded-For entry is the client; a test
//     connecting from 127.0.0.2 (all of 127/8 is loopback on Linux) is a stranger, whose X-Forwarded-For must count for
//     nothing;
//   - two of this file's own, on a database of their own, with the production defaults of every limit (the run's
//     server lifts some): the production server (`npm start`) trusting 127.0.0.1 as a proxy, and plain `next start`
//     (START_MODE=next) trusting none. Each of their clients is a loopback address of its own (the client socket is
//     bound with `localAddress`), so each limit counts its own client and no test disturbs another.

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Trust');
});

const octet = () => Math.floor(Math.random() * 254) + 1;
const spoofedAddress = () => `${octet()}.${octet()}.${octet()}.${octet()}`;
const BAD_TOKEN = `ck_test_${'Q'.repeat(43)}`;

interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request from a chosen local address (node:http lets us bind the client socket), to the run's server or to
 * `base`. A GET unless there is a body (`body` as it is, or `json`), which is sent as JSON.
 */
function fromAddress(
  localAddress: string,
  path: string,
  options: { base?: string; method?: string; headers?: Record<string, string>; body?: string; json?: unknown } = {},
): Promise<RawResult> {
  const url = new URL((options.base ?? baseUrl) + path);
  const body = options.body ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        localAddress,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const codeOf = (result: RawResult) => (JSON.parse(result.body) as { error?: { code?: string } }).error?.code;

describe('a rotated X-Forwarded-For does not escape the failed-token limiter', () => {
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

describe('every API answer carries nosniff and no-store; HSTS only over TLS', () => {
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

// ---------------------------------------------------------------- servers of this file's own, at the default limits

function newUser(label: string) {
  const id = randomUUID().slice(0, 8);
  return {
    company: `Trust ${label} ${id}`,
    email: `${label.toLowerCase()}-${id}@example.com`,
    password: `pw-${id}-correct-horse`,
  };
}

/** Signs up from `from` and follows the link mailed for it (read from the server's outbox page), from the same address: 201. */
async function signUpVerified(base: string, from: string, user: { company: string; email: string; password: string }) {
  const asked = await fromAddress(from, '/portal-api/auth/sign-up', { base, json: user });
  expect(asked.status, asked.body).toBe(202);
  const token = new URL(await linkFromOutbox(base, user.email)).searchParams.get('token');
  const verified = await fromAddress(from, '/portal-api/auth/verify-email', { base, json: { token } });
  expect(verified.status, verified.body).toBe(201);
}

const MODES = [
  { mode: 'server', trusted: '127.0.0.1/32', net: 10 },
  { mode: 'next', trusted: '', net: 20 },
] as const;

describe('servers of their own, at the production defaults of every limit', { timeout: 240_000 }, () => {
  let databaseUrl = '';
  const servers = new Map<string, AppProcess>();

  beforeAll(async () => {
    databaseUrl = await freshDatabase(inject('databaseUrl'), 'trust');
    await Promise.all(
      MODES.map(async ({ mode, trusted }) => {
        const app = await startApp({
          name: `${mode} server`,
          timeoutMs: 180_000,
          env: {
            DATABASE_URL: databaseUrl,
            START_MODE: mode,
            APP_WORKERS: '1',
            LOG_LEVEL: 'warn',
            COOKIE_SECURE: 'false',
            WEBHOOK_WORKER: 'off',
            TRUSTED_PROXIES: trusted,
            WEBHOOK_SECRETS_KEY: process.env.WEBHOOK_SECRETS_KEY ?? randomBytes(32).toString('base64'),
            // The production defaults of every limit: nothing inherited from the environment.
            API_AUTH_FAILURES_PER_MINUTE: undefined,
            SIGN_UPS_PER_ADDRESS_PER_HOUR: undefined,
            SIGN_IN_FAILURES_PER_ADDRESS: undefined,
            MAIL_REQUESTS_PER_ADDRESS_PER_HOUR: undefined,
            MAIL_REQUESTS_PER_EMAIL_PER_HOUR: undefined,
            // Sign-ups are confirmed by the link mailed for them, read from the development outbox's page.
            SMTP_URL: undefined,
            MAIL_OUTBOX: 'on',
            HTTPS_ONLY: undefined,
          },
        });
        servers.set(mode, app);
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all([...servers.values()].map((app) => app.stop('SIGTERM')));
    if (databaseUrl) await dropFreshDatabase(databaseUrl).catch(() => undefined);
  });

  for (const { mode, net } of MODES) {
    // This mode's clients: 127.0.<net>.x, apart from the other mode's.
    const address = (host: number) => `127.0.${net}.${host}`;
    const base = () => servers.get(mode)!.baseUrl;
    const send = (from: string, path: string, options: { headers?: Record<string, string>; json?: unknown } = {}) =>
      fromAddress(from, path, { ...options, base: base() });

    describe(mode === 'server' ? 'production server, 127.0.0.1 trusted as proxy' : 'next start, no trusted proxy', () => {
      it('rotating X-Forwarded-For does not escape the sign-in per-address limit (30 failures, then 429)', async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 32; i++) {
          const result = await send(address(1), '/portal-api/auth/sign-in', {
            headers: { 'x-forwarded-for': spoofedAddress() },
            json: { email: `nobody-${i}-${Date.now()}@e2e.example`, password: 'wrong-password' },
          });
          statuses.push(result.status);
        }
        expect(statuses).toEqual([...Array.from({ length: 30 }, () => 401), 429, 429]);
      });

      it('rotating X-Forwarded-For does not escape the failed-token limiter on paths Next serves (30 a minute)', async () => {
        // `…/webhooks/openapi.json` ends like the public document, so even the production server hands
        // it to Next's route handler, where the token is checked.
        const statuses: number[] = [];
        for (let i = 0; i < 31; i++) {
          const result = await send(address(2), '/api/1.1/webhooks/openapi.json', {
            headers: { authorization: `Token ck_live_${'Z'.repeat(43)}`, 'x-forwarded-for': spoofedAddress() },
          });
          statuses.push(result.status);
        }
        expect(statuses).toEqual([...Array.from({ length: 30 }, () => 401), 429]);
      });

      it('a stranger’s failures lock the stranger out, never the user signing in from elsewhere', async () => {
        const user = newUser(`lock${net}`);
        await signUpVerified(base(), address(3), user);
        const stranger: number[] = [];
        for (let i = 0; i < 7; i++) {
          stranger.push(
            (await send(address(4), '/portal-api/auth/sign-in', { json: { email: user.email, password: `guess-${i}` } })).status,
          );
        }
        expect(stranger).toEqual([401, 401, 401, 401, 401, 429, 429]);
        // The stranger's address stays refused, right password or not.
        const strangerRight = await send(address(4), '/portal-api/auth/sign-in', {
          json: { email: user.email, password: user.password },
        });
        expect(strangerRight.status).toBe(429);
        expect(Number(strangerRight.headers['retry-after'])).toBeGreaterThan(0);
        // The user, from an address that has not been failing, gets in.
        const own = await send(address(5), '/portal-api/auth/sign-in', {
          json: { email: user.email, password: user.password },
        });
        expect(own.status).toBe(200);
        expect(JSON.parse(own.body)).toEqual({ ok: true });
        expect(String(own.headers['set-cookie'])).toMatch(/carrier_session=/);
      });

      it('many failures for one e-mail from many addresses slow it down, never lock it', async () => {
        const user = newUser(`slow${net}`);
        await signUpVerified(base(), address(10), user);
        // 12 failures from three addresses, each under its own limit of 5: past the 10 that start the slowdown.
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) {
          statuses.push(
            (
              await send(address(11 + (i % 3)), '/portal-api/auth/sign-in', {
                json: { email: user.email, password: `guess-${i}` },
              })
            ).status,
          );
        }
        expect(statuses).toEqual(Array.from({ length: 12 }, () => 401));
        const started = Date.now();
        const own = await send(address(14), '/portal-api/auth/sign-in', {
          json: { email: user.email, password: user.password },
        });
        expect(own.status).toBe(200);
        // 12 failures: two past the threshold, so this attempt waited 750 ms (SIGN_IN_SLOWDOWN_*), at least.
        expect(Date.now() - started).toBeGreaterThanOrEqual(700);
      });

      it('sign-up is limited per address (10 an hour), a known e-mail included, then 429 with Retry-After', async () => {
        const taken = newUser(`taken${net}`);
        await signUpVerified(base(), address(6), taken);
        // 4 probes with the known e-mail (its own limit is 5 mails an hour, the sign-up above included), then new
        // e-mails: all answered alike until the address's 10 are spent.
        const probes: RawResult[] = [];
        for (let i = 0; i < 12; i++) {
          const email = i < 4 ? taken.email : newUser(`probe${i}`).email;
          probes.push(
            await send(address(7), '/portal-api/auth/sign-up', {
              headers: { 'x-forwarded-for': spoofedAddress() },
              json: { ...newUser(`probe${i}`), email },
            }),
          );
        }
        expect(probes.map((p) => p.status)).toEqual([...Array.from({ length: 10 }, () => 202), 429, 429]);
        expect(new Set(probes.slice(0, 10).map((p) => p.body)).size).toBe(1);
        expect(codeOf(probes[10])).toBe('rate_limited');
        const retryAfter = Number(probes[10].headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(3_600);
        // Another address still signs up.
        expect((await send(address(8), '/portal-api/auth/sign-up', { json: newUser(`ok${net}`) })).status).toBe(202);
      });

      it('portal pages and portal-api answers carry nosniff and no-store', async () => {
        const page = await send(address(9), '/sign-in');
        expect(page.status).toBe(200);
        expect(page.headers['x-content-type-options']).toBe('nosniff');
        expect(String(page.headers['cache-control'])).toContain('no-store');
        const api = await send(address(9), '/portal-api/auth/sign-in', { json: { email: 'x', password: '' } });
        expect(api.status).toBe(422);
        expect(api.headers['x-content-type-options']).toBe('nosniff');
        expect(api.headers['cache-control']).toBe('no-store');
        const apiError = await send(address(9), '/api/1.1/webhooks/openapi.json', {
          headers: { authorization: 'Token nope' },
        });
        expect(apiError.status).toBe(401);
        expect(apiError.headers['x-content-type-options']).toBe('nosniff');
        expect(apiError.headers['cache-control']).toBe('no-store');
        expect(apiError.headers['strict-transport-security']).toBeUndefined();
      });

      if (mode === 'server') {
        it('Strict-Transport-Security when the trusted proxy says https, not when a stranger does', async () => {
          const viaProxy = await send('127.0.0.1', '/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
          expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
          const viaProxyApi = await send('127.0.0.1', '/api/1.1/webhooks/openapi.json', {
            headers: { 'x-forwarded-proto': 'https', authorization: 'Token nope' },
          });
          expect(viaProxyApi.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
          const stranger = await send(address(9), '/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
          expect(stranger.headers['strict-transport-security']).toBeUndefined();
        });
      }
    });
  }
});
