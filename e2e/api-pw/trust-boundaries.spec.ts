import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { createDatabase, dropDatabase } from '../../scripts/database.mjs';
import { e2eDatabaseUrl } from '../database';
import { migrateDeploy } from '../../scripts/migrate.mjs';
import { startApp, type AppProcess } from '../api/support/spawn';
import { uniqueUser } from '../fixtures';
import { linkFromOutbox } from '../outbox';

// Issue 11, findings 2, 3, 4 and 7, on the portal's sign-in and sign-up and on the API paths that
// Next's route handlers serve, through servers of this spec's own with the production limits:
//   - the production server (`npm start`), trusting 127.0.0.1 as a proxy (TRUSTED_PROXIES), and
//   - plain `next start` (START_MODE=next), trusting no proxy (the default).
// Each client is a distinct loopback address (all of 127/8 is loopback on Linux; the client socket
// is bound with `localAddress`), so each limit counts its own client and no test disturbs another.

interface Result {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  base: string,
  from: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Result> {
  const url = new URL(base + path);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
        localAddress: from,
        agent: false,
        headers: { ...(options.json === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.json === undefined ? undefined : JSON.stringify(options.json));
  });
}

/** Signs up from `from` and follows the link mailed for it (e2e/outbox.ts), from the same address: 201. */
async function signUpVerified(base: string, from: string, user: { company: string; email: string; password: string }) {
  const asked = await send(base, from, '/portal-api/auth/sign-up', { json: user });
  expect(asked.status, asked.body).toBe(202);
  const token = new URL(await linkFromOutbox(base, user.email)).searchParams.get('token');
  const verified = await send(base, from, '/portal-api/auth/verify-email', { json: { token } });
  expect(verified.status, verified.body).toBe(201);
}

const octet = () => Math.floor(Math.random() * 254) + 1;
const spoofed = () => `${octet()}.${octet()}.${octet()}.${octet()}`;
const codeOf = (result: Result) => (JSON.parse(result.body) as { error?: { code?: string } }).error?.code;

const MODES = [
  { mode: 'server', trusted: '127.0.0.1/32', net: 10 },
  { mode: 'next', trusted: '', net: 20 },
] as const;

let serverUrl: string;
let databaseName: string;
let databaseUrl: string;
const servers = new Map<string, { base: string; app: AppProcess }>();

test.describe.configure({ timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  serverUrl = await e2eDatabaseUrl();
  databaseName = `carrier_trust_${process.pid}_${Date.now()}`;
  databaseUrl = await createDatabase(serverUrl, databaseName);
  await migrateDeploy(databaseUrl);
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
          // The production defaults of every limit: nothing inherited from the shared server's settings.
          API_AUTH_FAILURES_PER_MINUTE: undefined,
          SIGN_UPS_PER_ADDRESS_PER_HOUR: undefined,
          SIGN_IN_FAILURES_PER_ADDRESS: undefined,
          MAIL_REQUESTS_PER_ADDRESS_PER_HOUR: undefined,
          MAIL_REQUESTS_PER_EMAIL_PER_HOUR: undefined,
          // Sign-ups are confirmed by the link mailed for them, read from the development outbox (e2e/outbox.ts).
          SMTP_URL: undefined,
          MAIL_OUTBOX: 'on',
          HTTPS_ONLY: undefined,
        },
      });
      servers.set(mode, { base: app.baseUrl, app });
    }),
  );
});

test.afterAll(async () => {
  await Promise.all([...servers.values()].map(({ app }) => app.stop('SIGTERM')));
  if (databaseName) await dropDatabase(serverUrl, databaseName).catch(() => undefined);
});

for (const { mode, net } of MODES) {
  // This mode's clients: 127.0.<net>.x, apart from the other mode's.
  const address = (host: number) => `127.0.${net}.${host}`;
  const base = () => servers.get(mode)!.base;

  test.describe(`${mode === 'server' ? 'production server, 127.0.0.1 trusted as proxy' : 'next start, no trusted proxy'}`, () => {
    test('finding 2: rotating X-Forwarded-For does not escape the sign-in per-address limit (30 failures, then 429)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) {
        const result = await send(base(), address(1), '/portal-api/auth/sign-in', {
          headers: { 'x-forwarded-for': spoofed() },
          json: { email: `nobody-${i}-${Date.now()}@e2e.example`, password: 'wrong-password' },
        });
        statuses.push(result.status);
      }
      expect(statuses).toEqual([...Array.from({ length: 30 }, () => 401), 429, 429]);
    });

    test('finding 2: rotating X-Forwarded-For does not escape the failed-token limiter on paths Next serves (30 a minute)', async () => {
      // `…/webhooks/openapi.json` ends like the public document, so even the production server hands
      // it to Next's route handler, where the token is checked.
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const result = await send(base(), address(2), '/api/1.1/webhooks/openapi.json', {
          headers: { authorization: `Token ck_live_${'Z'.repeat(43)}`, 'x-forwarded-for': spoofed() },
        });
        statuses.push(result.status);
      }
      expect(statuses).toEqual([...Array.from({ length: 30 }, () => 401), 429]);
    });

    test('finding 3: a stranger’s failures lock the stranger out, never the user signing in from elsewhere', async () => {
      const user = uniqueUser(`lock${net}`);
      await signUpVerified(base(), address(3), user);
      const stranger: number[] = [];
      for (let i = 0; i < 7; i++) {
        stranger.push(
          (await send(base(), address(4), '/portal-api/auth/sign-in', { json: { email: user.email, password: `guess-${i}` } }))
            .status,
        );
      }
      expect(stranger).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // The stranger's address stays refused, right password or not.
      const strangerRight = await send(base(), address(4), '/portal-api/auth/sign-in', {
        json: { email: user.email, password: user.password },
      });
      expect(strangerRight.status).toBe(429);
      expect(Number(strangerRight.headers['retry-after'])).toBeGreaterThan(0);
      // The user, from an address that has not been failing, gets in.
      const own = await send(base(), address(5), '/portal-api/auth/sign-in', {
        json: { email: user.email, password: user.password },
      });
      expect(own.status).toBe(200);
      expect(JSON.parse(own.body)).toEqual({ ok: true });
      expect(String(own.headers['set-cookie'])).toMatch(/carrier_session=/);
    });

    test('finding 3: many failures for one e-mail from many addresses slow it down, never lock it', async () => {
      const user = uniqueUser(`slow${net}`);
      await signUpVerified(base(), address(10), user);
      // 12 failures from three addresses, each under its own limit of 5: past the 10 that start the slowdown.
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push(
          (
            await send(base(), address(11 + (i % 3)), '/portal-api/auth/sign-in', {
              json: { email: user.email, password: `guess-${i}` },
            })
          ).status,
        );
      }
      expect(statuses).toEqual(Array.from({ length: 12 }, () => 401));
      const started = Date.now();
      const own = await send(base(), address(14), '/portal-api/auth/sign-in', {
        json: { email: user.email, password: user.password },
      });
      expect(own.status).toBe(200);
      // 12 failures: two past the threshold, so this attempt waited 750 ms (SIGN_IN_SLOWDOWN_*), at least.
      expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    });

    test('finding 4: sign-up is limited per address (10 an hour), a known e-mail included, then 429 with Retry-After', async () => {
      const taken = uniqueUser(`taken${net}`);
      await signUpVerified(base(), address(6), taken);
      // 4 probes with the known e-mail (its own limit is 5 mails an hour, the sign-up above included), then new
      // e-mails: all answered alike until the address's 10 are spent.
      const probes: Result[] = [];
      for (let i = 0; i < 12; i++) {
        const email = i < 4 ? taken.email : uniqueUser(`probe${i}`).email;
        probes.push(
          await send(base(), address(7), '/portal-api/auth/sign-up', {
            headers: { 'x-forwarded-for': spoofed() },
            json: { ...uniqueUser(`probe${i}`), email },
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
      expect((await send(base(), address(8), '/portal-api/auth/sign-up', { json: uniqueUser(`ok${net}`) })).status).toBe(202);
    });

    test('finding 7: portal pages and portal-api answers carry nosniff and no-store', async () => {
      const page = await send(base(), address(9), '/sign-in');
      expect(page.status).toBe(200);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(String(page.headers['cache-control'])).toContain('no-store');
      const api = await send(base(), address(9), '/portal-api/auth/sign-in', { json: { email: 'x', password: '' } });
      expect(api.status).toBe(422);
      expect(api.headers['x-content-type-options']).toBe('nosniff');
      expect(api.headers['cache-control']).toBe('no-store');
      const apiError = await send(base(), address(9), '/api/1.1/webhooks/openapi.json', {
        headers: { authorization: 'Token nope' },
      });
      expect(apiError.status).toBe(401);
      expect(apiError.headers['x-content-type-options']).toBe('nosniff');
      expect(apiError.headers['cache-control']).toBe('no-store');
      expect(apiError.headers['strict-transport-security']).toBeUndefined();
    });

    if (mode === 'server') {
      test('finding 7: Strict-Transport-Security when the trusted proxy says https, not when a stranger does', async () => {
        const viaProxy = await send(base(), '127.0.0.1', '/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
        expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        const viaProxyApi = await send(base(), '127.0.0.1', '/api/1.1/webhooks/openapi.json', {
          headers: { 'x-forwarded-proto': 'https', authorization: 'Token nope' },
        });
        expect(viaProxyApi.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        const stranger = await send(base(), address(9), '/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
        expect(stranger.headers['strict-transport-security']).toBeUndefined();
      });
    }
  });
}
