import { OPERATIONS } from '@/lib/api/registry';
import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { db } from '@/lib/db';
import { apiRoutes } from '@/lib/http/routes';
import { newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { childPids, startApp, testServerEnv, type AppProcess } from './support/spawn';
import {
  HOSTILE_SEGMENTS,
  Raw,
  alive,
  applyEdits,
  edit,
  hostileForwarding,
  hostileHeaders,
  hostileQuery,
  portalRoutes,
  processTree,
  toJson,
  treeMemory,
  type ProcessMemory,
} from './support/hostile';
import { containerSample, packageSample, rateSampleAll } from './support/samples';
import { signUpTokenFromOutbox } from './support/portal';

// The hostile-input property suite: over EVERY route of the API (lib/http/routes.ts) and
// of the portal (app/portal-api/**/route.ts, read from the files), it varies the path, the query,
// the headers and the body — huge arrays and strings up to the body limit, deep nesting, NUL, lone
// surrogates, RTL and zero-width characters, impossible dates and numbers, malformed escapes,
// repeated and prototype keys — and asserts: never a 5xx; every 4xx is the JSON envelope with
// error.code and x-request-id; the server's processes all stay alive; and none of them grows past
// RSS_LIMIT_MB. Then one regression test per weakness found by attacking it.
//
// The portal part needs a server that serves the portal (TEST_SERVER=server or next; `npm test`'s
// default is the production server).
//
// The memory bound: with a 256 MB heap, a worker that validated each element of a huge array died of
// heap exhaustion; bounded validation keeps it far from that. The goal of 400 MB
// for the worst 5 MB bodies is measured on a quiet machine by `npm run bench -- --only bounded`; this
// suite runs while other suites load the same server, where the production worker peaked at 361–396 MB
// and `next start` at 326 MB (docs/reliability.md), so it asserts 450 MB: room for the allocator's noise,
// none for a leak or a per-element cost.
//
// It runs on a server of its own, started as the suite's is (same mode, settings and database): on the shared
// one, what the other suites had loaded before it came into the measure, by as much as the margin.

let app: AppProcess | undefined;
let baseUrl = '';
let serverPid = 0;
let startTree: number[] = [];
beforeAll(async () => {
  // The outbox on, as on the suite's server: the portal part signs up by following the link mailed for it.
  app = await startApp({
    name: 'hostile-input server',
    env: { ...testServerEnv(inject('databaseUrl'), process.env.TEST_SERVER ?? 'server'), MAIL_OUTBOX: 'on' },
  });
  baseUrl = app.baseUrl;
  serverPid = childPids(app.pid)[0] ?? app.pid;
  startTree = processTree(serverPid);
  console.log(
    `hostile-input: RSS at the start: ${treeMemory(serverPid)
      .map((p) => `${p.name}[${p.pid}] ${p.rssMb.toFixed(0)} MB`)
      .join(', ')}`,
  );
}, 120_000);
// The heap is capped at 256 MB (npm start); the rest is code, and Next loads a route's bundle on its first request, so
// after the portal run has visited every route the server sits near 440 MB. A body held in a dozen copies passes this.
const RSS_LIMIT_MB = 512;
/** The API's body limit (lib/env.ts API_MAX_BODY_BYTES), and the portal forms' (lib/portal/route.ts readJson). */
const API_BODY_LIMIT = 5 * 1024 * 1024;
const PORTAL_FORM_LIMIT = 1_000_000;
const PUBLIC_URL = 'https://93.184.215.14/hooks/hostile';
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// ------------------------------------------------------------------ sending and judging

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function send(request: Sent): Promise<Answer> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.method === 'GET' ? undefined : request.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function describeSent(request: Sent): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length}): ${request.body.slice(0, 300)}`;
  return `${request.method} ${request.path.slice(0, 300)} headers ${JSON.stringify(request.headers).slice(0, 400)}${body}`;
}

/** Never a 5xx; a 4xx is the envelope, with x-request-id (and, on the API, CORS). */
function judge(answer: Answer, request: Sent, options: { cors: boolean }): void {
  const where = () => `${answer.status} for ${describeSent(request)}\n→ ${answer.text.slice(0, 500)}`;
  if (answer.status >= 500) throw new Error(`5xx: ${where()}`);
  if (answer.status < 400) return;
  let body: { error?: { code?: unknown; message?: unknown } };
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`a 4xx that is not JSON: ${where()}`);
  }
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string')
    throw new Error(`a 4xx without the envelope: ${where()}`);
  if (!REQUEST_ID.test(answer.headers.get('x-request-id') ?? '')) throw new Error(`a 4xx without x-request-id: ${where()}`);
  if (options.cors && answer.headers.get('access-control-allow-origin') !== '*')
    throw new Error(`an API 4xx without CORS headers: ${where()}`);
}

// ------------------------------------------------------------------ the server

const peaks = new Map<number, ProcessMemory>();

/** Alive (every process it started with), answering, and no process over the memory bound. */
async function expectServerHealthy(after: string): Promise<void> {
  const gone = startTree.filter((pid) => !alive(pid));
  expect(gone, `server processes died after ${after}`).toEqual([]);
  const health = await fetch(`${baseUrl}/version-test/api/1.1/wf/rate`, { method: 'OPTIONS' });
  expect(health.status, `server not answering after ${after}`).toBe(204);
  const memory = treeMemory(serverPid);
  console.log(
    `hostile-input: RSS after ${after}: ${memory.map((p) => `${p.name}[${p.pid}] ${p.rssMb.toFixed(0)} MB`).join(', ')}`,
  );
  for (const process of memory) {
    const peak = peaks.get(process.pid);
    if (!peak || process.rssMb > peak.rssMb) peaks.set(process.pid, process);
    expect(process.rssMb, `${process.name} (pid ${process.pid}) resident memory after ${after}`).toBeLessThan(RSS_LIMIT_MB);
  }
}

/** Samples the server's memory every 50 ms while `work` runs, so a peak between checks is seen too; asserts the bound on it. */
async function watchingMemory<T>(work: () => Promise<T>): Promise<T> {
  const during = new Map<number, ProcessMemory>();
  const timer = setInterval(() => {
    for (const process of treeMemory(serverPid)) {
      for (const map of [during, peaks]) {
        const peak = map.get(process.pid);
        if (!peak || process.rssMb > peak.rssMb) map.set(process.pid, process);
      }
    }
  }, 50);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    for (const peak of during.values()) {
      expect(peak.rssMb, `${peak.name} (pid ${peak.pid}) peak resident memory`).toBeLessThan(RSS_LIMIT_MB);
    }
  }
}

/** The property runs and the worst bodies take ~20 s each on an idle machine; a busy one needs more. */
const LONG = 240_000;

afterAll(async () => {
  const summary = [...peaks.values()].map((p) => `${p.name}[${p.pid}] ${p.rssMb.toFixed(0)} MB`).join(', ');
  console.log(`hostile-input: peak RSS per server process (limit ${RSS_LIMIT_MB} MB): ${summary}`);
  await app?.stop();
});

// ------------------------------------------------------------------ worst-shape bodies

/** A 5 MB-class body of the worst shapes for a route whose sample is `sample`, just under `limit` bytes. */
function worstBodies(sample: unknown, limit: number): { shape: string; body: string }[] {
  const budget = limit - 1_024;
  const sampleObject =
    sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {};
  // The sample's first array field (ContainerDetails, events) carries the array; else a field of its own.
  const arrayField =
    Object.keys(sampleObject).find((k) => Array.isArray(sampleObject[k])) ?? Object.keys(sampleObject)[0] ?? 'field';
  const firstString = Object.keys(sampleObject).find((k) => typeof sampleObject[k] === 'string') ?? arrayField;
  const rest = { ...sampleObject };
  delete rest[arrayField];
  const prefix = (key: string) => {
    const others = toJson(Object.fromEntries(Object.entries(rest).filter(([k]) => k !== key)));
    return others === '{}' ? `{${JSON.stringify(key)}:` : `${others.slice(0, -1)},${JSON.stringify(key)}:`;
  };
  const fill = (head: string, unit: string, tail: string, join = ',') => {
    const count = Math.floor((budget - head.length - tail.length) / (unit.length + join.length));
    return head + Array(count).fill(unit).join(join) + tail;
  };
  return [
    // ~2.5 million numbers: the largest array the limit allows.
    { shape: 'array of numbers', body: fill(`${prefix(arrayField)}[`, '1', ']}') },
    { shape: 'array of empty objects', body: fill(`${prefix(arrayField)}[`, '{}', ']}') },
    { shape: 'array of NUL strings', body: fill(`${prefix(arrayField)}[`, '"\\u0000"', ']}') },
    { shape: 'one huge string', body: `${prefix(firstString)}"${'x'.repeat(budget - prefix(firstString).length - 3)}"}` },
    { shape: 'lone surrogates', body: fill(`${prefix(firstString)}"`, '\\ud800', '"}', '') },
    {
      shape: 'deep nesting',
      body: `${prefix(firstString)}${'['.repeat(Math.floor((budget - 200) / 2))}${']'.repeat(Math.floor((budget - 200) / 2))}}`,
    },
    { shape: 'wide object', body: wideObject(prefix(firstString), budget) },
    { shape: 'top-level array', body: fill('[', '1', ']') },
  ];
}

/** `head{"k0":0,"k1":0,…}}`: as many distinct keys as fit in `budget` bytes. */
function wideObject(head: string, budget: number): string {
  const members: string[] = [];
  let size = head.length + 3;
  for (let i = 0; ; i++) {
    const member = `"k${i}":0`;
    if (size + member.length + 1 > budget) break;
    members.push(member);
    size += member.length + 1;
  }
  return `${head}{${members.join(',')}}}`;
}

// ------------------------------------------------------------------ the API

describe('hostile input: the API (every route of apiRoutes())', () => {
  const cases = apiRoutes().flatMap((route) => Object.keys(route.methods).map((method) => ({ pattern: route.pattern, method })));
  const SAMPLES: Record<string, () => unknown> = {
    'POST /wf/rate': rateSampleAll,
    'POST /wf/manifest': () => containerSample(`HOSTILE-${tracking('C')}`, [tracking('HA'), tracking('HB')]),
    'POST /wf/package': () => packageSample(tracking('HP')),
    'POST /webhooks': () => ({ url: PUBLIC_URL, events: ['package.sorting'], description: 'Sorting hub' }),
    'PATCH /webhooks/:id': () => ({ url: PUBLIC_URL, events: ['package.sorting'], description: 'Sorting hub', enabled: true }),
  };
  const sampleFor = (method: string, pattern: string) => SAMPLES[`${method} ${pattern}`]?.() ?? {};
  const TAKES_NO_BODY = new Set(
    OPERATIONS.filter((o) => o.method === 'POST' && !o.requestBody && !o.path.includes('{')).map((o) => `${o.method} ${o.path}`),
  );

  const accounts: TestAccount[] = [];
  const endpointIds: Record<Env, string> = { test: '', live: '' };
  let used = 0;
  // 300 requests of burst per token on the test server: spread the load so that the limiter is not what answers.
  const account = () => accounts[Math.floor(used++ / 200) % accounts.length];
  const address = () => `198.18.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 254) + 1}`;

  async function createEndpoint(env: Env): Promise<string> {
    const created = await send({
      method: 'POST',
      path: pathFor(env, '/webhooks'),
      headers: {
        authorization: `Token ${accounts[0].tokens[env]}`,
        'content-type': 'application/json',
        'x-forwarded-for': address(),
      },
      body: JSON.stringify(SAMPLES['POST /webhooks']()),
    });
    expect(created.status, created.text).toBe(201);
    return JSON.parse(created.text).id as string;
  }

  beforeAll(async () => {
    for (let i = 0; i < 10; i++) accounts.push(await newAccount('Hostile'));
    endpointIds.test = await createEndpoint('test');
    endpointIds.live = await createEndpoint('live');
  });

  it('takes its routes from the route table', () => {
    expect(cases.length).toBe(apiRoutes().reduce((n, route) => n + Object.keys(route.methods).length, 0));
    expect(cases.map((c) => `${c.method} ${c.pattern}`)).toContain('POST /webhooks/:id/deliveries/:deliveryId/redeliver');
  });

  const apiRequest = fc
    .record({
      route: fc.constantFrom(...cases),
      env: fc.constantFrom<Env>('test', 'live'),
      ids: fc.array(
        fc.oneof({ weight: 2, arbitrary: fc.constant('real') }, { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) }),
        { minLength: 2, maxLength: 2 },
      ),
      suffix: fc.option(fc.constantFrom(...HOSTILE_SEGMENTS), { freq: 6 }),
      query: fc.option(hostileQuery, { freq: 2 }),
      auth: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'valid', 'none', 'garbage', 'other environment'),
      headers: hostileHeaders,
      forwarding: fc.option(hostileForwarding, { freq: 4 }),
      body: fc.oneof(
        { weight: 6, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => ({ edits })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('', 'null', '[]', '{', '{"a":1,"a":2}', '{"__proto__":{"x":1}}', '\u0000', '\ufeff{}', '1e999')
            .map((raw) => ({ raw })),
        },
      ),
    })
    .map((c) => {
      const [first, second] = c.ids;
      let path = c.route.pattern
        .replace(':id', first === 'real' ? endpointIds[c.env] : first)
        .replace(':deliveryId', second === 'real' ? 'msg_doesnotexist' : second);
      if (c.suffix !== null) path += `/${c.suffix}`;
      const caller = account();
      const headers: Record<string, string> = { 'content-type': 'application/json', ...c.headers, 'x-forwarded-for': address() };
      if (c.auth === 'valid') headers.authorization = `Token ${caller.tokens[c.env]}`;
      if (c.auth === 'garbage') headers.authorization = 'Token ck_test_\u00ff\u00fe';
      if (c.auth === 'other environment') headers.authorization = `Token ${caller.tokens[c.env === 'test' ? 'live' : 'test']}`;
      // Odd forwarding headers only with a valid token: failed authentications count against the address.
      if (c.auth === 'valid' && c.forwarding) Object.assign(headers, c.forwarding);
      const body = 'raw' in c.body ? c.body.raw : toJson(applyEdits(sampleFor(c.route.method, c.route.pattern), c.body.edits));
      return { method: c.route.method, path: pathFor(c.env, path) + (c.query ?? ''), headers, body } satisfies Sent;
    });

  it(
    'never answers 5xx, and every 4xx is the envelope, whatever the path, query, headers and body',
    async () => {
      await watchingMemory(() =>
        fc.assert(
          fc.asyncProperty(apiRequest, async (request) => {
            judge(await send(request), request, { cors: true });
          }),
          { numRuns: 500, endOnFailure: true },
        ),
      );
      await expectServerHealthy('the API property run');
    },
    LONG,
  );

  it(
    'refuses the worst 5 MB bodies on every route that takes one, quickly and within its memory',
    async () => {
      const timings: string[] = [];
      await watchingMemory(async () => {
        for (const { pattern, method } of cases.filter((c) => c.method === 'POST' || c.method === 'PATCH')) {
          const path = pathFor('test', pattern.replace(':id', endpointIds.test).replace(':deliveryId', 'msg_doesnotexist'));
          // Every shape where the route reads a body; two where it reads none (it must still refuse or ignore them).
          const shapes = worstBodies(sampleFor(method, pattern), API_BODY_LIMIT).filter(
            (_, i) => `${method} ${pattern}` in SAMPLES || i === 0 || i === 3,
          );
          for (const { shape, body } of shapes) {
            const request: Sent = {
              method,
              path,
              headers: {
                authorization: `Token ${account().tokens.test}`,
                'content-type': 'application/json',
                'x-forwarded-for': address(),
              },
              body,
            };
            const started = performance.now();
            const answer = await send(request);
            const ms = performance.now() - started;
            judge(answer, { ...request, body: `<${shape}>` }, { cors: true });
            // A route that reads a body refuses these; one that reads none (closing a test period) may ignore them,
            // judge() holding it to no 5xx.
            if (!TAKES_NO_BODY.has(`${method} ${pattern}`))
              expect(answer.status, `${method} ${pattern} ${shape}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
            // The answer itself stays small, whatever the body held.
            expect(answer.text.length, `${method} ${pattern} ${shape}`).toBeLessThan(64 * 1024);
            timings.push(`${method} ${pattern} ${shape}: ${answer.status} in ${Math.round(ms)} ms`);
          }
          await expectServerHealthy(`the worst bodies on ${method} ${pattern}`);
        }
      });
      // Not a timed test (bench/bounded.ts is the benchmark): the times are printed for the record.
      console.log(`hostile-input, API worst bodies:\n  ${timings.join('\n  ')}`);
    },
    LONG,
  );

  describe('regressions: malformed paths', () => {
    const expectNotFoundEnvelope = (answer: Answer, allow: string) => {
      expect(answer.status, answer.text).toBe(404);
      const body = JSON.parse(answer.text);
      expect(body.error.code).toBe('not_found');
      expect(typeof body.error.message).toBe('string');
      const requestId = answer.headers.get('x-request-id');
      expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
      expect(body.error.request_id).toBe(requestId);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-allow-methods')).toBe(allow);
    };

    it('headers over the 16 KB Node reads: 431 envelope with a request id, on every way in', async () => {
      const answer = await send({
        method: 'GET',
        path: '/version-test/api/1.1/webhooks',
        headers: { 'x-padding': 'x'.repeat(20_000) },
      });
      expect(answer.status, answer.text).toBe(431);
      const body = JSON.parse(answer.text);
      expect(body.error.code).toBe('headers_too_large');
      expect(body.error.request_id).toBe(answer.headers.get('x-request-id'));
    });

    it('GET /version-test/api/1.1/webhooks/%ZZ without a token: 404 envelope with request id and the route CORS headers', async () => {
      expectNotFoundEnvelope(
        await send({ method: 'GET', path: '/version-test/api/1.1/webhooks/%ZZ', headers: { 'x-forwarded-for': address() } }),
        'GET, HEAD, PATCH, DELETE, OPTIONS',
      );
    });

    it.each([
      ['GET', '/webhooks/%00', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
      ['PATCH', '/webhooks/%00', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
      ['DELETE', '/webhooks/%00', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
      ['GET', '/webhooks/%00/deliveries', 'GET, HEAD, OPTIONS'],
      ['POST', '/webhooks/%00/test', 'POST, OPTIONS'],
      ['POST', '/webhooks/%00/rotate-secret', 'POST, OPTIONS'],
      ['POST', '/webhooks/%00/deliveries/msg_x/redeliver', 'POST, OPTIONS'],
      ['POST', '/webhooks/REAL/deliveries/%00/redeliver', 'POST, OPTIONS'],
      ['GET', '/webhooks/%ZZ/deliveries', 'GET, HEAD, OPTIONS'],
      ['GET', '/webhooks/%E0%A4', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
    ])('%s …%s with a valid token: 404 envelope, nothing sent to PostgreSQL', async (method, path, allow) => {
      for (const env of ['test', 'live'] as const) {
        const answer = await send({
          method,
          path: pathFor(env, path.replace('REAL', endpointIds[env])),
          headers: {
            authorization: `Token ${account().tokens[env]}`,
            'content-type': 'application/json',
            'x-forwarded-for': address(),
          },
          body: method === 'GET' ? undefined : '{"description":"x"}',
        });
        expectNotFoundEnvelope(answer, allow);
      }
    });
  });
});

// ------------------------------------------------------------------ the portal

describe('hostile input: the portal (every app/portal-api route)', () => {
  const routes = portalRoutes();
  const cases = routes.flatMap((route) => route.methods.map((method) => ({ pattern: route.pattern, method })));
  const unique = () => randomUUID().slice(0, 8);
  const main = {
    company: `Hostile portal ${unique()}`,
    email: `hostile-${unique()}@example.com`,
    password: `pw-${unique()}-correct-horse`,
  };
  // The sign-in samples name this user, so that hostile sign-ins never lock out the session's own.
  const decoy = {
    company: `Hostile decoy ${unique()}`,
    email: `decoy-${unique()}@example.com`,
    password: `pw-${unique()}-correct-horse`,
  };
  const session = { cookie: '', csrf: '' };
  const ids: Record<string, string> = {};
  const address = () => `198.19.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 254) + 1}`;

  const SAMPLES: Record<string, () => unknown> = {
    'POST /portal-api/auth/sign-up': () => ({
      company: `Hostile ${unique()}`,
      email: `h-${unique()}@example.com`,
      password: 'correct horse battery staple',
    }),
    'POST /portal-api/auth/sign-in': () => ({ email: decoy.email, password: 'not the password' }),
    'PUT /portal-api/environment': () => ({ environment: 'test' }),
    'POST /portal-api/rates': rateSampleAll,
    'POST /portal-api/webhooks': () => ({ url: PUBLIC_URL, events: ['package.sorting'], description: 'Sorting hub' }),
    'PATCH /portal-api/webhooks/:id': () => ({
      url: PUBLIC_URL,
      events: ['package.sorting'],
      description: 'Sorting hub',
      enabled: true,
    }),
    'POST /portal-api/tokens': () => ({ name: 'Hostile CI' }),
    'POST /portal-api/auth/forgot-password': () => ({ email: decoy.email }),
    'POST /portal-api/auth/reset-password': () => ({ token: 'A'.repeat(43), password: 'correct horse battery staple' }),
    'POST /portal-api/auth/verify-email': () => ({ token: 'A'.repeat(43) }),
    // Never the session's own password: a hostile run must not change it.
    'POST /portal-api/account/password': () => ({
      currentPassword: 'not the password',
      newPassword: 'correct horse battery staple',
    }),
    'POST /portal-api/invitations': () => ({ email: `invitee-${unique()}@example.com`, role: 'viewer' }),
    'POST /portal-api/auth/accept-invitation': () => ({ token: 'A'.repeat(43), password: 'correct horse battery staple' }),
    'POST /portal-api/session/account': () => ({ accountId: randomUUID() }),
    'POST /portal-api/manifests': () => containerSample(`HOSTILE-P-${tracking('C')}`, [tracking('PA'), tracking('PB')]),
  };
  const sampleFor = (method: string, pattern: string) => SAMPLES[`${method} ${pattern}`]?.() ?? {};

  /** A real id for each dynamic segment, by the collection it is under. */
  const realId = (pattern: string, name: string) => {
    if (name === 'deliveryId') return 'msg_doesnotexist';
    const collection = /\/portal-api\/([^/]+)\/:/.exec(pattern)?.[1] ?? '';
    return ids[collection] ?? 'unknown';
  };

  /** Signs up and follows the link mailed for it (read from the outbox, support/portal.ts): the session's cookie. */
  async function signUp(user: typeof main): Promise<string> {
    const asked = await send({
      method: 'POST',
      path: '/portal-api/auth/sign-up',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
      body: JSON.stringify(user),
    });
    expect(asked.status, asked.text).toBe(202);
    const answer = await send({
      method: 'POST',
      path: '/portal-api/auth/verify-email',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
      body: JSON.stringify({ token: await signUpTokenFromOutbox(user.email) }),
    });
    expect(answer.status, answer.text).toBe(201);
    const cookie = /carrier_session=[^;]+/.exec(answer.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error(`sign-up set no session cookie: ${answer.headers.get('set-cookie')}`);
    return cookie;
  }

  async function signIn(): Promise<void> {
    const answer = await send({
      method: 'POST',
      path: '/portal-api/auth/sign-in',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
      body: JSON.stringify({ email: main.email, password: main.password }),
    });
    expect(answer.status, answer.text).toBe(200);
    await adoptSession(/carrier_session=[^;]+/.exec(answer.headers.get('set-cookie') ?? '')![0]);
  }

  /** The cookie, and the session's CSRF token (what the portal layout publishes, read from its row). */
  async function adoptSession(cookie: string): Promise<void> {
    const secret = decodeURIComponent(cookie.split('=')[1]);
    const row = await db.session.findUnique({
      where: { id: createHash('sha256').update(secret).digest('hex') },
      select: { csrfToken: true },
    });
    if (!row) throw new Error('no session row for the cookie the portal set');
    session.cookie = cookie;
    session.csrf = row.csrfToken;
  }

  async function portal(method: string, path: string, body?: unknown): Promise<Answer> {
    return send({
      method,
      path,
      headers: {
        cookie: session.cookie,
        'x-csrf-token': session.csrf,
        'x-carrier-environment': 'test',
        'content-type': 'application/json',
        'x-forwarded-for': address(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    // A server without the portal answers its paths with the API-only 404 (or a page): say so, and fail.
    const probe = await send({ method: 'GET', path: '/portal-api/session', headers: {} });
    if (probe.status !== 401 || !probe.text.includes('"unauthorized"')) {
      throw new Error(
        `This server does not serve the portal (GET /portal-api/session → ${probe.status}): the portal part of the hostile-input ` +
          'suite needs a server that serves both (TEST_SERVER=server or TEST_SERVER=next).',
      );
    }
    await signUp(decoy);
    await adoptSession(await signUp(main));
    const manifest = await portal('POST', '/portal-api/manifests', SAMPLES['POST /portal-api/manifests']());
    expect(manifest.status, manifest.text).toBe(200);
    ids.manifests = JSON.parse(manifest.text).ManifestID;
    const webhook = await portal('POST', '/portal-api/webhooks', SAMPLES['POST /portal-api/webhooks']());
    expect(webhook.status, webhook.text).toBe(201);
    ids.webhooks = JSON.parse(webhook.text).id;
    const token = await portal('POST', '/portal-api/tokens', { name: 'to be revoked' });
    expect(token.status, token.text).toBe(201);
    ids.tokens = JSON.parse(token.text).id;
  });

  it('takes its routes from app/portal-api', () => {
    expect(routes.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        '/portal-api/auth/sign-in',
        '/portal-api/manifests/:id/export',
        '/portal-api/webhooks/:id/deliveries/:deliveryId/redeliver',
      ]),
    );
    expect(cases.length).toBeGreaterThanOrEqual(routes.length);
  });

  const portalRequest = fc
    .record({
      route: fc.constantFrom(...cases),
      ids: fc.array(
        fc.oneof(
          { weight: 2, arbitrary: fc.constant('real') },
          { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS.filter((s) => !s.includes('%2F'))) },
        ),
        {
          minLength: 2,
          maxLength: 2,
        },
      ),
      query: fc.option(hostileQuery, { freq: 2 }),
      credentials: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'no session', 'no csrf', 'garbage cookie'),
      headers: hostileHeaders,
      forwarding: fc.option(hostileForwarding, { freq: 4 }),
      body: fc.oneof(
        { weight: 6, arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => ({ edits })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('', 'null', '[]', '{', '{"a":1,"a":2}', '{"__proto__":{"x":1}}', '\u0000', '1e999')
            .map((raw) => ({ raw })),
        },
      ),
    })
    .map((c) => {
      const [first, second] = c.ids;
      const path = c.route.pattern
        .replace(/:id\b/, first === 'real' ? realId(c.route.pattern, 'id') : first)
        .replace(':deliveryId', second === 'real' ? 'msg_doesnotexist' : second);
      const headers: Record<string, string> = { 'content-type': 'application/json', ...c.headers, 'x-forwarded-for': address() };
      if (c.credentials !== 'no session')
        headers.cookie = c.credentials === 'garbage cookie' ? 'carrier_session=%ZZ\u00ff; carrier_env=\u00fe' : session.cookie;
      // The page's environment, as the portal's fetcher sends it (lib/portal/fetcher.ts); garbage with a garbage cookie.
      if (c.credentials === 'valid') Object.assign(headers, { 'x-csrf-token': session.csrf, 'x-carrier-environment': 'test' });
      if (c.credentials === 'garbage cookie') headers['x-carrier-environment'] = 'l\u00efve';
      if (c.credentials === 'valid' && c.forwarding) Object.assign(headers, c.forwarding);
      const body = 'raw' in c.body ? c.body.raw : toJson(applyEdits(sampleFor(c.route.method, c.route.pattern), c.body.edits));
      return { route: c.route, sent: { method: c.route.method, path: path + (c.query ?? ''), headers, body } satisfies Sent };
    });

  it(
    'never answers 5xx, and every 4xx is the envelope, whatever the path, query, headers and body',
    async () => {
      await watchingMemory(() =>
        fc.assert(
          fc.asyncProperty(portalRequest, async ({ route, sent }) => {
            const answer = await send(sent);
            judge(answer, sent, { cors: false });
            // Signing out, or revoking what the next runs use, is a fair outcome: put the session back.
            const endsSession = [
              '/portal-api/session',
              '/portal-api/account/sessions',
              '/portal-api/account/sessions/:id',
            ].includes(route.pattern);
            if (endsSession && route.method === 'DELETE' && answer.status === 200) await signIn();
          }),
          { numRuns: 300, endOnFailure: true },
        ),
      );
      await expectServerHealthy('the portal property run');
    },
    LONG,
  );

  it(
    'refuses the worst bodies (up to 5 MB, and up to the 1 MB form limit) on every route that takes one',
    async () => {
      const timings: string[] = [];
      await watchingMemory(async () => {
        for (const { pattern, method } of cases.filter((c) => ['POST', 'PUT', 'PATCH'].includes(c.method))) {
          const path = pattern.replace(/:id\b/, realId(pattern, 'id')).replace(':deliveryId', 'msg_doesnotexist');
          // Up to each route's own limit: 5 MB for the manifest builder, 1 MB for the forms (and one 5 MB body there: 413).
          const limit = pattern === '/portal-api/manifests' ? API_BODY_LIMIT : PORTAL_FORM_LIMIT;
          const bodies = worstBodies(sampleFor(method, pattern), limit).filter(
            (_, i) => `${method} ${pattern}` in SAMPLES || i === 0 || i === 3,
          );
          if (limit === PORTAL_FORM_LIMIT)
            bodies.push({ ...worstBodies(sampleFor(method, pattern), API_BODY_LIMIT)[0], shape: 'array of numbers, 5 MB' });
          for (const { shape, body } of bodies) {
            const request: Sent = {
              method,
              path,
              headers: {
                cookie: session.cookie,
                'x-csrf-token': session.csrf,
                'x-carrier-environment': 'test',
                'content-type': 'application/json',
                'x-forwarded-for': address(),
              },
              body,
            };
            const started = performance.now();
            const answer = await send(request);
            const ms = performance.now() - started;
            judge(answer, { ...request, body: `<${shape}, ${body.length} bytes>` }, { cors: false });
            expect(answer.text.length, `${method} ${pattern} ${shape}`).toBeLessThan(64 * 1024);
            timings.push(`${method} ${pattern} ${shape} (${body.length} bytes): ${answer.status} in ${Math.round(ms)} ms`);
          }
          await expectServerHealthy(`the worst bodies on ${method} ${pattern}`);
        }
      });
      console.log(`hostile-input, portal worst bodies:\n  ${timings.join('\n  ')}`);
    },
    LONG,
  );

  describe('regressions: hostile input', () => {
    const expectEnvelope = (answer: Answer, status: number, code: string) => {
      expect(answer.status, answer.text).toBe(status);
      const body = JSON.parse(answer.text);
      expect(body.error.code).toBe(code);
      expect(typeof body.error.message).toBe('string');
      const requestId = answer.headers.get('x-request-id');
      expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
      expect(body.error.request_id).toBe(requestId);
      return body.error as { code: string; message: string; details?: { path: string; message: string }[] };
    };

    it.each([
      ['GET', '/portal-api/manifests/%00'],
      ['GET', '/portal-api/manifests/%00/packages'],
      ['GET', '/portal-api/manifests/%00/export'],
      ['GET', '/portal-api/manifests/%ZZ'],
      ['GET', '/portal-api/manifests/%ZZ/export'],
      ['GET', '/portal-api/manifests/<5,000 x>'],
      ['GET', '/portal-api/webhooks/%00'],
      ['PATCH', '/portal-api/webhooks/%00'],
      ['DELETE', '/portal-api/webhooks/%00'],
      ['GET', '/portal-api/webhooks/%00/deliveries'],
      ['POST', '/portal-api/webhooks/%00/test'],
      ['POST', '/portal-api/webhooks/%00/rotate-secret'],
      ['POST', '/portal-api/webhooks/%00/deliveries/%00/redeliver'],
      ['GET', '/portal-api/webhooks/%ZZ/deliveries'],
      ['DELETE', '/portal-api/tokens/%00'],
    ])('%s %s: 404 envelope, no query PostgreSQL refuses', async (method, label) => {
      const path = label.replace('<5,000 x>', 'x'.repeat(5_000));
      expectEnvelope(
        await portal(method, path, method === 'GET' || method === 'DELETE' ? undefined : { description: 'x' }),
        404,
        'not_found',
      );
    });

    it.each([
      ['/portal-api/manifests?from=2026-02-30', 'from'],
      ['/portal-api/manifests?to=0000-00-00', 'to'],
      ['/portal-api/manifests?from=9999-99-99', 'from'],
      ['/portal-api/manifests?q=%00', 'q'],
      ['/portal-api/manifests?service=%00', 'service'],
      ['/portal-api/packages?tracking_number=%00', 'tracking_number'],
      ['/portal-api/packages?tracking_number=%ZZ', 'tracking_number'],
      ['/portal-api/packages?from=0000-01-01', 'from'],
      ['/portal-api/packages?cursor=not-a-cursor', 'cursor'],
      ['/portal-api/exports/packages?to=2026-02-30', 'to'],
      ['/portal-api/exports/packages?status=%00', 'status'],
    ])('GET %s: a 400/422 envelope naming %s', async (path, parameter) => {
      const answer = await portal('GET', path);
      expect([400, 422], answer.text).toContain(answer.status);
      const error = expectEnvelope(
        answer,
        answer.status,
        answer.status === 400 ? JSON.parse(answer.text).error.code : 'validation_failed',
      );
      expect(JSON.stringify(error.details ?? error.message)).toContain(parameter);
    });

    it.each(['sign-in', 'sign-up'])('Origin: null on %s: 403 envelope', async (which) => {
      const body =
        which === 'sign-in' ? { email: decoy.email, password: 'whatever-it-is' } : SAMPLES['POST /portal-api/auth/sign-up']();
      const answer = await send({
        method: 'POST',
        path: `/portal-api/auth/${which}`,
        headers: { 'content-type': 'application/json', origin: 'null', 'x-forwarded-for': address() },
        body: JSON.stringify(body),
      });
      expectEnvelope(answer, 403, 'forbidden');
    });

    it.each(['not a url', 'http://[::1', 'javascript:alert(1)'])('Origin %j on sign-in: 403 envelope', async (origin) => {
      const answer = await send({
        method: 'POST',
        path: '/portal-api/auth/sign-in',
        headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': address() },
        body: JSON.stringify({ email: decoy.email, password: 'whatever-it-is' }),
      });
      expectEnvelope(answer, 403, 'forbidden');
    });
  });

  afterAll(async () => {
    await expectServerHealthy('the portal suite');
  });
});

// Keep the Raw writer honest: a number past a double goes out as written.
it('writes JSON that JSON.stringify cannot', () => {
  expect(toJson({ a: new Raw('1e999'), b: ['\u0000', '\ud800'] })).toBe('{"a":1e999,"b":["\\u0000","\\ud800"]}');
});
