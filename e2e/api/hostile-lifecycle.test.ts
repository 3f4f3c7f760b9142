import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { hashToken } from '@/lib/auth/tokens';
import { db, pgPool } from '@/lib/db';
import { apiRoutes } from '@/lib/http/routes';
import { baseUrl, call, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { portalRoutes } from './support/hostile';
import { signUpTokenFromOutbox } from './support/portal';
import { containerSample, packageSample } from './support/samples';

/** The API reached through `next start`'s route handlers (CI's first pass), not the production server. */
const NEXT_START = process.env.TEST_SERVER === 'next';

// Issues 13–15's routes attacked from outside, as a tester or an attacker would: the lifecycle reads and lists,
// cancel, the simulator, POST /ops/scans, the documents, the probes and the portal-api lifecycle routes. Raw HTTP
// (node:http with the path as sent, node:net for bytes no client sends) where fetch would normalise. Every answer
// is either a correct success or a 4xx error envelope with a request id naming the field: never a 5xx, never
// another account's data, never a hang.

// ---------------------------------------------------------------- raw HTTP

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
  bytes: Buffer;
}

const target = new URL(baseUrl);
const tally: Record<string, number> = {};
const count = (kind: string, n = 1) => {
  tally[kind] = (tally[kind] ?? 0) + n;
};

/** One request with the path exactly as given (node:http sends it unnormalised: `..`, `%2F`, `%ZZ` stay). */
/** For bodies the server refuses before reading them: on a kept-alive connection it drains the rest, so the answer arrives. */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number; keepAlive?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body;
    let answered = false;
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        agent: options.keepAlive ? keepAlive : false,
        headers: {
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
            : {}),
          ...options.headers,
        },
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json, bytes });
        });
        response.on('error', reject);
      },
    );
    // A hang is a failure of its own, named, not a test timeout.
    request.setTimeout(options.timeoutMs ?? 30_000, () =>
      request.destroy(new Error(`no answer in ${options.timeoutMs ?? 30_000} ms: ${method} ${path.slice(0, 200)}`)),
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A server that answers before reading a refused body (413) and closes: our write fails, its answer stands.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') {
        setTimeout(() => (answered ? undefined : reject(error)), 2_000);
        return;
      }
      reject(error);
    });
    request.end(body);
  });
}

/** Bytes on a socket: a request line no HTTP client would send (a raw NUL, a raw lone surrogate's bytes). */
function socketRequest(bytes: Buffer, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function envelope(answer: Answer, status: number, code: string, field?: string) {
  const where = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBe(status);
  expect(answer.json?.error?.code, where).toBe(code);
  expect(typeof answer.json?.error?.message, where).toBe('string');
  expect(answer.headers['x-request-id'], where).toMatch(/^req_[0-9a-f]{32}$/);
  if (field !== undefined)
    expect(
      answer.json.error.details?.map((d: { path: string }) => d.path),
      where,
    ).toContain(field);
  return answer.json.error as {
    code: string;
    message: string;
    details?: { path: string; message: string }[];
    current_status?: string;
  };
}

function ok(answer: Answer, status = 200) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  return answer.json;
}

const api = (env: Env, path: string) => pathFor(env, path);
const auth = (token: string) => ({ authorization: `Token ${token}` });
const jsonBody = (value: unknown) => JSON.stringify(value);
// Each refused-token request its own address (a header the server trusts from 127.0.0.1 here), so the
// failed-authentication limiter never blocks the suite's own address.
const address = () => `198.51.100.${Math.floor(Math.random() * 254) + 1}`;

// ---------------------------------------------------------------- accounts and data

/** Several tokens of one account: the per-token rate limit (burst 300 here) is not what is tested. */
class Tokens {
  private next = 0;
  constructor(readonly list: string[]) {}
  get(): string {
    return this.list[this.next++ % this.list.length];
  }
}

async function tokens(accountId: string, env: Env, n: number): Promise<Tokens> {
  const made = await Promise.all(Array.from({ length: n }, () => createApiToken({ accountId, environment: env })));
  return new Tokens(made.map((t) => t.token));
}

let owner: TestAccount;
let stranger: TestAccount;
let ownerTest: Tokens;
let ownerLive: Tokens;
let strangerTest: Tokens;
let ops: string;
let revokedOps: string;
let revokedShipper: string;
const owned = {
  containerManifest: '',
  containerId: '',
  containerNumbers: [] as string[],
  dailyManifest: '',
  dailyNumber: '',
  liveManifest: '',
  liveNumber: '',
};

async function createContainer(token: string, numbers: string[], env: Env = 'test') {
  const containerId = `ULD-${randomUUID().slice(0, 8)}`;
  const result = await call('/wf/manifest', { env, token, body: containerSample(containerId, numbers) });
  expect(result.status, result.text).toBe(200);
  return { manifestId: result.json.ManifestID as string, containerId };
}

async function createDaily(token: string, number: string, env: Env = 'test') {
  const result = await call('/wf/package', { env, token, body: packageSample(number) });
  expect(result.status, result.text).toBe(200);
  return result.json.ManifestID as string;
}

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newAccount('Attacked'), newAccount('Attacker')]);
  [ownerTest, ownerLive, strangerTest] = await Promise.all([
    tokens(owner.accountId, 'test', 8),
    tokens(owner.accountId, 'live', 2),
    tokens(stranger.accountId, 'test', 3),
  ]);
  ops = (await createOpsToken({ name: 'attack suite' })).token;
  revokedOps = (await createOpsToken({ name: 'attack suite, revoked' })).token;
  await pgPool().query('UPDATE ops_tokens SET revoked_at = now() WHERE token_hash = $1', [hashToken(revokedOps)]);
  const gone = await createApiToken({ accountId: owner.accountId, environment: 'test' });
  revokedShipper = gone.token;
  await db.apiToken.update({ where: { tokenHash: hashToken(revokedShipper) }, data: { revokedAt: new Date() } });

  owned.containerNumbers = [tracking('ATC'), tracking('ATC')];
  const c = await createContainer(owner.tokens.test, owned.containerNumbers);
  owned.containerManifest = c.manifestId;
  owned.containerId = c.containerId;
  owned.dailyNumber = tracking('ATD');
  owned.dailyManifest = await createDaily(owner.tokens.test, owned.dailyNumber);
  owned.liveNumber = tracking('ATL');
  owned.liveManifest = (await createContainer(owner.tokens.live, [owned.liveNumber], 'live')).manifestId;
});

afterAll(() => {
  keepAlive.destroy();
  // The table of the report: how many attacks of each class this file sent.
  console.log(`hostile-lifecycle tally: ${JSON.stringify(tally)}`);
});

// The routes under attack, read from the route table so a new lifecycle or document route is attacked too.
const LIFECYCLE_PATTERNS = apiRoutes()
  .map((route) => route.pattern)
  .filter((pattern) => /^\/(manifests|packages|ops)\b/.test(pattern));

/** A pattern with the owner's ids (or the given ones) filled in. */
function fill(pattern: string, ids: { id?: string; trackingNumber?: string } = {}): string {
  return pattern
    .replace(':id', ids.id ?? owned.containerManifest)
    .replace(':TrackingNumber', ids.trackingNumber ?? owned.dailyNumber);
}

function methodOf(pattern: string): 'GET' | 'POST' {
  const route = apiRoutes().find((r) => r.pattern === pattern);
  return route?.methods.GET ? 'GET' : 'POST';
}

// ---------------------------------------------------------------- path segments

describe('hostile path segments', () => {
  const SEGMENTS = [
    '%ZZ',
    '%',
    '%00',
    'a%00b',
    '%ED%A0%80', // a lone surrogate (U+D800) as UTF-8 bytes: no UTF-8 at all
    '%ED%B0%80',
    '%C0%80', // overlong NUL
    '%2F',
    '..%2F..%2Fmanifests',
    'x'.repeat(10_000),
    `${'9'.repeat(129)}`,
    '%E2%80%AE', // RTL override
    '%0A',
  ];
  const idPatterns = LIFECYCLE_PATTERNS.filter((p) => p.includes(':'));

  it('every id route answers 404 not_found for a segment no id can be, before any query, in both environments', async () => {
    expect(idPatterns.length).toBeGreaterThanOrEqual(12);
    for (const env of ['test', 'live'] as const) {
      for (const pattern of idPatterns) {
        const route = apiRoutes().find((r) => r.pattern === pattern);
        const method = methodOf(pattern);
        for (const segment of SEGMENTS) {
          const path = api(env, pattern.replace(/:[A-Za-z]+/, segment));
          const answer = await raw(method, path, {
            headers: auth(env === 'test' ? ownerTest.get() : ownerLive.get()),
            body: method === 'POST' ? '{"status":"delivered"}' : undefined,
          });
          count('path segment');
          envelope(answer, 404, 'not_found');
          // The path alone never echoes back into the answer (an overlong segment, an RTL override).
          expect(answer.text.length, path.slice(0, 80)).toBeLessThan(1_000);
          if (route?.testOnly && env === 'live') continue;
        }
      }
    }
  });

  it('`..` and `%2E%2E` segments resolve as RFC 3986 dot segments (as Next and every proxy do): never across environments or accounts', async () => {
    const token = ownerTest.get();
    const n = tracking('ATDOT');
    await createDaily(token, n);
    // Resolved before routing: /packages/N/../N/cancel is /packages/N/cancel, on the owner's own package.
    const cancelled = await raw('POST', api('test', `/packages/${n}/../${n}/cancel`), { headers: auth(token) });
    count('path segment');
    expect(ok(cancelled).status).toBe('cancelled');
    const cases: [string, string, Record<string, string>, number, string][] = [
      ['GET', api('test', '/packages/..'), auth(token), 404, 'not_found'],
      ['GET', api('test', '/packages/../label'), auth(token), 404, 'not_found'],
      ['GET', api('test', '/manifests/./document'), auth(token), 404, 'not_found'],
      ['POST', api('test', '/packages/../cancel'), auth(token), 404, 'not_found'],
      // Two levels up stays under /version-test/: the test environment, which has no live package.
      ['GET', `/version-test/api/1.1/../../api/1.1/packages/${owned.liveNumber}`, auth(token), 404, 'not_found'],
      // Three levels up is the live base path: the live environment, where a test token is refused.
      ['GET', `/version-test/api/1.1/../../../api/1.1/packages/${owned.liveNumber}`, auth(token), 401, 'wrong_environment'],
      [
        'GET',
        `/version-test/api/1.1/%2E%2E/%2E%2E/%2e%2e/api/1.1/packages/${owned.liveNumber}`,
        auth(token),
        401,
        'wrong_environment',
      ],
      [
        'POST',
        `/version-test/api/1.1/../../../api/1.1/packages/${owned.liveNumber}/cancel`,
        auth(token),
        401,
        'wrong_environment',
      ],
      // Out of the live base path into the test one's simulator with a live token: refused the same way.
      [
        'POST',
        `/api/1.1/../../version-test/api/1.1/packages/${owned.dailyNumber}/simulate`,
        auth(ownerLive.get()),
        401,
        'wrong_environment',
      ],
      // Another account walking to the owner's ids: still someone else's, not found.
      ['GET', api('test', `/manifests/x/../${owned.containerManifest}`), auth(strangerTest.get()), 404, 'not_found'],
      ['POST', api('test', `/packages/x/%2E%2E/${owned.dailyNumber}/cancel`), auth(strangerTest.get()), 404, 'not_found'],
      // Above the root: no route.
      ['GET', '/../../../version-test/api/1.1/../../../../etc/passwd', auth(token), 404, 'not_found'],
    ];
    for (const [method, path, headers, status, code] of cases) {
      const answer = await raw(method, path, {
        headers: { ...headers, 'x-forwarded-for': address() },
        body: method === 'POST' ? '{"status":"delivered"}' : undefined,
      });
      count('path segment');
      if (path.startsWith('/../')) expect(answer.status, answer.text.slice(0, 200)).toBe(404);
      else if (NEXT_START && path.endsWith('/packages/..')) {
        // `next start` resolves it to the base path with a trailing slash and redirects that to the base path itself
        // (Next's trailing-slash rule, before any route handler), whose answer is the API's 404 envelope.
        expect([answer.status, answer.headers.location]).toEqual([308, api('test', '').replace(/\/$/, '')]);
      } else envelope(answer, status, code);
      expect(answer.text).not.toContain(owned.liveNumber);
      expect(answer.text).not.toContain('"object":"package"');
    }
    const still = ok(await raw('GET', api('test', `/packages/${owned.dailyNumber}`), { headers: auth(token) }));
    expect(still.status).toBe('manifested');
    const live = ok(await raw('GET', api('live', `/packages/${owned.liveNumber}`), { headers: auth(ownerLive.get()) }));
    expect(live.status).toBe('manifested');
  });

  it('a raw NUL or raw non-ASCII byte in the request line is refused by the parser with the envelope, not a bare status', async () => {
    for (const line of [
      Buffer.from(`GET ${api('test', '/packages/a')}\u0000b HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'),
      Buffer.concat([
        Buffer.from(`GET ${api('test', '/manifests/')}`),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
      Buffer.from(`POST /ops/scans\u0000 HTTP/1.1\r\nHost: x\r\n\r\n`, 'latin1'),
    ]) {
      const text = await socketRequest(line);
      count('path segment');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      // Node's parser: 400 for a control character; a high byte may pass the parser and is then a 404 of ours.
      expect([400, 404], text.slice(0, 200)).toContain(status);
      expect(text).toMatch(/x-request-id: req_[0-9a-f]{32}/i);
      expect(text).toMatch(/"error":\{"code":"(bad_request|not_found)"/);
    }
  });
});

// ---------------------------------------------------------------- query parameters

describe('hostile query parameters on the lists', () => {
  const LISTS = ['/manifests', '/packages', `/manifests/:id/packages`];

  it('limit: 0, 101, -1, 1e3, NaN, 1.5, 0x10, " 5", repeated and array forms are 422 naming limit', async () => {
    for (const list of LISTS) {
      for (const value of [
        '0',
        '101',
        '-1',
        '1e3',
        'NaN',
        '1.5',
        '0x10',
        'Infinity',
        '99999999999999999999',
        '%00',
        'abc',
        '%ED%A0%80',
      ]) {
        const answer = await raw('GET', `${api('test', fill(list))}?limit=${value}`, { headers: auth(ownerTest.get()) });
        count('query');
        envelope(answer, 422, 'validation_failed', 'limit');
      }
      envelope(
        await raw('GET', `${api('test', fill(list))}?limit=1&limit=2`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'limit',
      );
      envelope(
        await raw('GET', `${api('test', fill(list))}?limit[]=1`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'limit[]',
      );
      envelope(
        await raw('GET', `${api('test', fill(list))}?limit[0]=1`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'limit[0]',
      );
      count('query', 3);
      // Empty is "not given"; 1 and 100 are the bounds; a whole number with spaces or a sign is that number.
      for (const value of ['', '1', '100', '%205', '+5', '05']) {
        const page = ok(await raw('GET', `${api('test', fill(list))}?limit=${value}`, { headers: auth(ownerTest.get()) }));
        count('query');
        expect(page.object).toBe('list');
      }
    }
  });

  it('status and every filter: repeated, unknown, prototype keys and undecodable escapes are 422 naming the parameter', async () => {
    const token = () => auth(ownerTest.get());
    const REENCODED = new Set([
      '/packages?manifest_id=%ED%A0%80',
      '/packages?tracking_number=%25',
      '/manifests?q=%E0%A4',
      '/packages?tracking_number=%ZZ',
    ]);
    const cases: [string, string][] = [
      ['/packages?status=manifested&status=cancelled', 'status'],
      ['/manifests?status=manifested&status=cancelled', 'status'],
      ['/packages?status=lost', 'status'],
      ['/packages?status=%00', 'status'],
      ['/packages?status[]=manifested', 'status[]'],
      ['/packages?__proto__=1', '__proto__'],
      ['/packages?constructor=1', 'constructor'],
      ['/manifests?toString=1', 'toString'],
      ['/packages?tracking_number=a%00b', 'tracking_number'],
      ['/packages?service=%00', 'service'],
      ['/packages?to_postal_code=%00', 'to_postal_code'],
      ['/packages?tracking_number=' + 'x'.repeat(10_000), 'tracking_number'],
      ['/manifests?q=%00', 'q'],
      ['/manifests?container_id=a%00', 'container_id'],
      ['/manifests?type=container&type=daily', 'type'],
      ['/manifests?type=box', 'type'],
      ['/manifests?offset=10', 'offset'],
      ['/manifests?page=2', 'page'],
      // Escapes that do not decode (a cut one, one that decodes to a lone surrogate, `%ZZ`), and a `%` where a
      // tracking number cannot hold one: one query reader for the API and the portal (lib/api/query.ts).
      ['/packages?manifest_id=%ED%A0%80', 'manifest_id'],
      ['/packages?tracking_number=%25', 'tracking_number'],
      ['/manifests?q=%E0%A4', 'q'],
      ['/packages?tracking_number=%ZZ', 'tracking_number'],
    ];
    for (const [path, field] of cases) {
      const answer = await raw('GET', api('test', path), { headers: token() });
      count('query');
      if (NEXT_START && field === '__proto__') {
        // `next start` drops a `__proto__` parameter from the URL it hands its route handlers (it parses the query
        // into a plain object first): the service never sees it, so the list answers as if it had not been sent.
        expect(answer.status, answer.text.slice(0, 200)).toBe(200);
        continue;
      }
      if (NEXT_START && REENCODED.has(path) && answer.status === 200) {
        // `next start` hands its route handlers a URL whose bad escapes it has already re-encoded (or decoded to
        // U+FFFD): the service sees well-formed text, and a filter with no alphabet of its own searches for it.
        expect(ok(answer).data, path).toEqual([]);
        continue;
      }
      const error = envelope(answer, 422, 'validation_failed', field);
      expect(error.message.length).toBeLessThan(2_000);
    }
    // Text that decodes to something no row holds (LIKE's own wildcards): a search that finds nothing, never a
    // pattern and never a 5xx.
    for (const path of ['/packages?tracking_number=%5F', '/manifests?q=%25%5F', '/manifests?q=100%25']) {
      const found = ok(await raw('GET', api('test', path), { headers: token() }));
      count('query');
      expect(found, path).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    }
    // A key of 10 KB is named by a prefix, never echoed whole.
    const long = await raw('GET', api('test', `/packages?${'k'.repeat(10_000)}=1`), { headers: token() });
    count('query');
    const error = envelope(long, 422, 'validation_failed');
    expect(long.text.length).toBeLessThan(2_000);
    expect(error.details?.[0]?.path.length).toBeLessThanOrEqual(100);
  });

  it('undecodable escapes in the query (%ZZ, a cut escape): 422 naming the parameter; text that decodes is a search that finds nothing', async () => {
    const cases: [string, string, string | null][] = [
      ['/packages', 'status=%ZZ', 'status'],
      ['/packages', 'cursor=%', 'cursor'],
      ['/packages', 'tracking_number=%ZZ', 'tracking_number'],
      ['/packages', 'tracking_number=1Z_9', null],
      ['/packages', '%ZZ=1', '%ZZ'],
      ['/manifests', 'status=%ZZ', 'status'],
      ['/manifests', 'cursor=%E0%A4', 'cursor'],
      ['/manifests', 'q=%E0%A4', 'q'],
      ['/manifests', 'q=%25', null],
      ['/manifests', 'tracking_number=%ZZ', 'tracking_number'],
      ['/manifests/:id/packages', 'status=%ZZ', 'status'],
      ['/manifests/:id/packages', 'cursor=%', 'cursor'],
      ['/manifests/:id/packages', '%ZZ=1', '%ZZ'],
    ];
    for (const [list, query, field] of cases) {
      const answer = await raw('GET', `${api('test', fill(list))}?${query}`, { headers: auth(ownerTest.get()) });
      count('query');
      // As above: behind `next start` the service may see a re-encoded escape as text.
      if (field === null || (NEXT_START && answer.status === 200 && field !== '%ZZ'))
        expect(ok(answer).data, `${list}?${query}`).toEqual([]);
      else envelope(answer, 422, 'validation_failed', field);
    }
  });

  it('impossible and out-of-range dates in from/to are 422 naming the field; from after to is an empty page', async () => {
    for (const list of ['/manifests', '/packages']) {
      for (const field of ['from', 'to']) {
        for (const value of [
          '2026-02-30',
          '0000-01-01',
          '9999-12-31',
          '2026-13-01',
          '2026-11-23T00:00:00Z',
          '1e10',
          '%00',
          '2026-1-1',
          '-2026-01-01',
          '+02026-01-01',
        ]) {
          const answer = await raw('GET', `${api('test', list)}?${field}=${value}`, { headers: auth(ownerTest.get()) });
          count('query');
          envelope(answer, 422, 'validation_failed', field);
        }
      }
      // A range that ends before it starts is a mistake in the request, not an empty page.
      envelope(
        await raw('GET', `${api('test', list)}?from=2026-12-31&to=2026-01-01`, { headers: auth(ownerTest.get()) }),
        422,
        'validation_failed',
        'to',
      );
      count('query');
      const oneDay = ok(
        await raw('GET', `${api('test', list)}?from=2026-01-01&to=2026-01-01`, { headers: auth(ownerTest.get()) }),
      );
      count('query');
      expect(oneDay.object).toBe('list');
      // The widest legal range is a page of the owner's own.
      const wide = ok(await raw('GET', `${api('test', list)}?from=2000-01-01&to=2099-12-31`, { headers: auth(ownerTest.get()) }));
      count('query');
      expect(wide.data.length).toBeGreaterThan(0);
    }
  });

  it('cursors: garbage, truncated, base64 of other JSON, huge, NUL: 422 naming cursor', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const real = ok(await raw('GET', `${api('test', '/packages')}?limit=1`, { headers: auth(ownerTest.get()) }));
    expect(real.next_cursor).toEqual(expect.any(String));
    const cursors = [
      'garbage',
      '!!!!',
      '%00',
      (real.next_cursor as string).slice(0, 10),
      (real.next_cursor as string).slice(0, -3),
      `${real.next_cursor}x`,
      b64({ t: '2026-01-01T00:00:00.000Z', k: 0, i: '1' }),
      b64(['2026-01-01T00:00:00.000Z', 2, '1']),
      b64(['2026-01-01T00:00:00.000Z', 0, "1' OR '1'='1"]),
      b64(['2026-02-30T00:00:00.000Z', 0, '1']),
      b64(['9999-12-31T00:00:00.000Z', 0, '1']),
      b64(['2026-01-01T00:00:00.000Z', 0, 'a\u0000b']),
      b64(['2026-01-01T00:00:00.000Z', 0, '\ud800']),
      b64(['2026-01-01T00:00:00.000Z', 0, '1', 'extra']),
      b64(null),
      b64('string'),
      b64([]),
      'A'.repeat(201),
      'A'.repeat(10_000),
      Buffer.from('\u0000\u0000\u0000').toString('base64url'),
    ];
    for (const list of LISTS) {
      for (const cursor of cursors) {
        const answer = await raw('GET', `${api('test', fill(list))}?cursor=${cursor}`, { headers: auth(ownerTest.get()) });
        count('cursor');
        envelope(answer, 422, 'validation_failed', 'cursor');
      }
    }
  });

  it("a cursor from another account, the other environment or another list never leaks the cursor's rows and never 5xx", async () => {
    // The stranger's own list with the owner's cursor: only the stranger's rows (none), whatever the position.
    const ownerPage = ok(await raw('GET', `${api('test', '/packages')}?limit=1`, { headers: auth(ownerTest.get()) }));
    const ownerManifests = ok(await raw('GET', `${api('test', '/manifests')}?limit=1`, { headers: auth(ownerTest.get()) }));
    const livePage = ok(await raw('GET', `${api('live', '/packages')}?limit=1`, { headers: auth(ownerLive.get()) }));
    const manifestPackages = ok(
      await raw('GET', `${api('test', `/manifests/${owned.containerManifest}/packages`)}?limit=1`, {
        headers: auth(ownerTest.get()),
      }),
    );
    const cursors = [
      ownerPage.next_cursor,
      ownerManifests.next_cursor,
      livePage.next_cursor ?? ownerPage.next_cursor,
      manifestPackages.next_cursor,
    ].filter(Boolean) as string[];
    expect(cursors.length).toBe(4);
    const ownerNumbers = [...owned.containerNumbers, owned.dailyNumber, owned.liveNumber];
    for (const cursor of cursors) {
      for (const list of ['/packages', '/manifests']) {
        const answer = await raw('GET', `${api('test', list)}?cursor=${cursor}`, { headers: auth(strangerTest.get()) });
        count('cursor');
        expect([200, 422], answer.text).toContain(answer.status);
        if (answer.status === 200) expect(answer.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
        else envelope(answer, 422, 'validation_failed', 'cursor');
        for (const n of ownerNumbers) expect(answer.text).not.toContain(n);
      }
      // The owner's test cursor on the live list, and another list's cursor on this one: the owner's own rows of that list, or 422.
      for (const [env, list] of [
        ['live', '/packages'],
        ['live', '/manifests'],
        ['test', '/packages'],
        ['test', '/manifests'],
      ] as const) {
        const answer = await raw('GET', `${api(env, list)}?cursor=${cursor}`, {
          headers: auth(env === 'test' ? ownerTest.get() : ownerLive.get()),
        });
        count('cursor');
        expect([200, 422], answer.text).toContain(answer.status);
        if (env === 'live') for (const n of [...owned.containerNumbers, owned.dailyNumber]) expect(answer.text).not.toContain(n);
      }
      // Another manifest's packages with this cursor: the stranger has none.
      const other = await raw('GET', `${api('test', `/manifests/${owned.containerManifest}/packages`)}?cursor=${cursor}`, {
        headers: auth(strangerTest.get()),
      });
      count('cursor');
      expect([404, 422]).toContain(other.status);
      envelope(other, other.status, other.status === 404 ? 'not_found' : 'validation_failed');
    }
  });
});

// ---------------------------------------------------------------- documents

describe('documents: ?format=, Accept and hostile queries', () => {
  it('formats no document comes in, repeated and hostile format values: 406 not_acceptable; never a 5xx', async () => {
    const docs = ['/manifests/:id/document', '/manifests/:id/tags', '/manifests/:id/labels', '/packages/:TrackingNumber/label'];
    for (const doc of docs) {
      for (const query of [
        'format=gif',
        'format=%00',
        'format=PDF%00',
        'format=' + 'p'.repeat(10_000),
        'format=%ED%A0%80',
        'format=',
        'format=html',
      ]) {
        const answer = await raw('GET', `${api('test', fill(doc))}?${query}`, { headers: auth(ownerTest.get()) });
        count('documents');
        expect([406, 422], `${doc}?${query.slice(0, 40)} ${answer.text.slice(0, 200)}`).toContain(answer.status);
        envelope(answer, answer.status, answer.status === 406 ? 'not_acceptable' : 'validation_failed');
        expect(answer.text.length).toBeLessThan(2_000);
      }
      for (const accept of [
        'text/html',
        'application/json',
        'image/gif',
        'application/pdf;q=0',
        '*/*;q=0',
        `${'a/b,'.repeat(2_000)}x/y`,
        'application/pdf;q=abc;q=1;q=',
        '\u00ff/\u00ff',
      ]) {
        const answer = await raw('GET', api('test', fill(doc)), { headers: { ...auth(ownerTest.get()), accept } });
        count('documents');
        if (answer.status === 200) {
          // A malformed q is read leniently; what came back must be a document this route makes.
          expect(['application/pdf', 'application/zpl; charset=utf-8', 'image/png']).toContain(answer.headers['content-type']);
        } else {
          envelope(answer, 406, 'not_acceptable');
        }
      }
    }
  });

  it('?format= and Accept agree, the first of repeated format wins or it is refused; unknown parameters never 5xx', async () => {
    for (const query of [
      'format=pdf&format=zpl',
      'format=zpl&format=pdf',
      'format[]=pdf',
      'paper=%00',
      'paper=tabloid',
      'paper=a4&paper=letter',
      'nope=1',
      '__proto__=x',
    ]) {
      const answer = await raw('GET', `${api('test', fill('/manifests/:id/labels'))}?${query}`, {
        headers: auth(ownerTest.get()),
      });
      count('documents');
      expect(answer.status, `${query}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      if (answer.status !== 200) envelope(answer, answer.status, answer.json?.error?.code);
    }
  });

  it('every document of a manifest whose stored text is hostile but storable (noncharacters, RTL, emoji, combining marks) is 200', async () => {
    for (const text of [
      '\uffff',
      'a\ufffeb',
      '\u202egnp.exe',
      '𝕏🚀👩‍👩‍👧',
      'e\u0301\u0301\u0301',
      'abc\u200b\ufeff',
      '中文 שלום مرحبا',
    ]) {
      const n = tracking('ATX');
      const body = containerSample(`ULD-${randomUUID().slice(0, 8)}`, [n]);
      Object.assign(body, { FromName: text, FromCompany: text, Consignee: text, ShipmentDescription: text, Reference1: text });
      Object.assign(body.ContainerDetails[0] as object, { ToName: text, ToAddress1: text, ToCity: text });
      const created = await call('/wf/manifest', { token: ownerTest.get(), body });
      expect(created.status, created.text).toBe(200);
      const id = created.json.ManifestID as string;
      for (const path of [
        `/manifests/${id}/document`,
        `/manifests/${id}/tags?format=zpl`,
        `/manifests/${id}/tags`,
        `/manifests/${id}/labels`,
        `/manifests/${id}/labels?format=zpl`,
        `/packages/${n}/label`,
        `/packages/${n}/label?format=png`,
        `/packages/${n}/label?format=zpl`,
      ]) {
        const answer = await raw('GET', api('test', path), { headers: auth(ownerTest.get()) });
        count('documents');
        expect(answer.status, `${JSON.stringify(text)} ${path}: ${answer.text.slice(0, 200)}`).toBe(200);
        expect(answer.bytes.length).toBeGreaterThan(100);
      }
    }
  });

  it("another account's and the other environment's documents are 404; the live path has the live one only", async () => {
    for (const doc of ['/manifests/:id/document', '/manifests/:id/tags', '/manifests/:id/labels']) {
      envelope(await raw('GET', api('test', fill(doc)), { headers: auth(strangerTest.get()) }), 404, 'not_found');
      envelope(await raw('GET', api('live', fill(doc)), { headers: auth(ownerLive.get()) }), 404, 'not_found');
      envelope(
        await raw('GET', api('test', fill(doc, { id: owned.liveManifest })), { headers: auth(ownerTest.get()) }),
        404,
        'not_found',
      );
      const own = await raw('GET', api('live', fill(doc, { id: owned.liveManifest })), { headers: auth(ownerLive.get()) });
      expect(own.status, own.text.slice(0, 200)).toBe(200);
      count('cross-account / env', 4);
    }
    envelope(
      await raw('GET', api('test', fill('/packages/:TrackingNumber/label', { trackingNumber: owned.liveNumber })), {
        headers: auth(ownerTest.get()),
      }),
      404,
      'not_found',
    );
    envelope(
      await raw('GET', api('test', fill('/packages/:TrackingNumber/label')), { headers: auth(strangerTest.get()) }),
      404,
      'not_found',
    );
    count('cross-account / env', 2);
  });
});

// ---------------------------------------------------------------- bodies

describe('hostile bodies on the POST routes', () => {
  function scan(fields: Record<string, unknown> = {}) {
    return {
      scan_id: `atk-${randomUUID()}`,
      location: 'JFK',
      occurred_at: new Date(Date.now() - 60_000).toISOString(),
      event: 'received',
      tracking_number: 'NOPE-ATTACK',
      ...fields,
    };
  }

  it('POST /ops/scans: 1,000 scans with every field hostile is 200, each refused on its own; 1,001 is 422 naming scans', async () => {
    const hostile: Record<string, unknown>[] = [
      { scan_id: 'a\u0000b' },
      { scan_id: '\ud800' },
      { scan_id: 'x'.repeat(10_000) },
      { scan_id: 42 },
      { tracking_number: 'a\u0000b' },
      { tracking_number: '\udfff' },
      { tracking_number: 'x'.repeat(10_000) },
      { tracking_number: ['a'] },
      { container_id: '\u0000', tracking_number: undefined },
      { container_id: '\ud800', tracking_number: undefined },
      { location: 'J\u0000K' },
      { location: '\ud800' },
      { occurred_at: '2026-02-30T00:00:00Z' },
      { occurred_at: '0000-01-01T00:00:00Z' },
      { occurred_at: '9999-12-31T23:59:59Z' },
      { occurred_at: '2026-11-23T24:00:00Z' },
      { occurred_at: '2026-11-23T08:00:00+25:00' },
      { occurred_at: 1 },
      { event: '\u0000' },
      { event: 'x'.repeat(10_000) },
      { event: '__proto__' },
      { exception_code: '\u0000', event: 'exception' },
      { exception_text: '\ud800', event: 'exception' },
      { exception_text: 'x'.repeat(501), event: 'exception' },
      { extra: 1 },
      { __proto__: { polluted: true } },
    ];
    const scans = Array.from({ length: 1_000 }, (_, i) => {
      const h = hostile[i % hostile.length];
      const s: Record<string, unknown> = { ...scan(), ...h };
      for (const [k, v] of Object.entries(h)) if (v === undefined) delete s[k];
      if ('__proto__' in h && i % 2) return JSON.parse(JSON.stringify(s).replace(/^\{/, '{"__proto__":{"polluted":true},'));
      return s;
    });
    const answer = await raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: jsonBody({ scans }) });
    count('body', 1_000);
    const body = ok(answer);
    expect(body.results).toHaveLength(1_000);
    // Nothing of these names a package: every scan is refused (invalid, or not found / unknown event).
    expect(body.refused).toBe(1_000);
    expect(body.applied + body.recorded + body.duplicate).toBe(0);
    for (const result of body.results) expect(result.result).toBe('refused');
    // A refused scan's id is echoed only when it is well formed: no NUL, surrogate or 10 KB back.
    expect(answer.text).not.toContain('\\u0000');
    expect(answer.text).not.toContain(
      'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const over = await raw('POST', api('test', '/ops/scans'), {
      headers: auth(ops),
      body: jsonBody({ scans: [...scans, scan()] }),
    });
    count('body');
    envelope(over, 422, 'validation_failed', 'scans');
  });

  it('POST /ops/scans: a NUL or lone surrogate in one scan refuses that scan alone, naming its field; the others apply', async () => {
    const n = tracking('ATN');
    await createDaily(ownerTest.get(), n);
    const good = scan({ tracking_number: n });
    const answer = await raw('POST', api('test', '/ops/scans'), {
      headers: auth(ops),
      body: jsonBody({
        scans: [
          scan({ exception_text: 'a\u0000b', event: 'exception' }),
          good,
          scan({ exception_code: '\ud800', event: 'exception' }),
          scan({ event: 'rec\u0000eived' }),
          scan({ container_id: 'C\u0007', tracking_number: undefined }),
        ].map((s) => JSON.parse(JSON.stringify(s))),
      }),
    });
    count('body', 5);
    const body = ok(answer);
    expect(body.results.map((r: { result: string }) => r.result)).toEqual([
      'refused',
      'applied',
      'refused',
      'refused',
      'refused',
    ]);
    expect(body.results[0].error.details).toEqual([
      { path: 'exception_text', message: 'must not contain control characters (found NUL at position 1)' },
    ]);
    expect(body.results[2].error.details).toEqual([
      { path: 'exception_code', message: 'must be valid Unicode text (it contains an unpaired surrogate)' },
    ]);
    expect(body.results[3].error.details[0].path).toBe('event');
    expect(body.results[4].error.details[0].path).toBe('container_id');
    expect(body.results[1]).toMatchObject({ scan_id: good.scan_id, result: 'applied', status: 'received' });
    const pkg = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('received');
  });

  it('POST /ops/scans: an impossible day or time is refused naming occurred_at, even for a real package (never rolled over)', async () => {
    const n = tracking('ATD');
    await createDaily(ownerTest.get(), n);
    const impossible = [
      '2026-02-30T00:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-11-23T24:00:00Z',
      '2026-11-23T23:60:00Z',
      '2026-11-23T23:59:60Z',
      '2026-00-10T00:00:00Z',
    ];
    const answer = await raw('POST', api('test', '/ops/scans'), {
      headers: auth(ops),
      body: jsonBody({ scans: impossible.map((occurred_at) => scan({ tracking_number: n, occurred_at: occurred_at })) }),
    });
    count('body', impossible.length);
    const body = ok(answer);
    expect(body.results.map((r: { result: string }) => r.result)).toEqual(impossible.map(() => 'refused'));
    for (const result of body.results)
      expect(result.error.details).toEqual([{ path: 'occurred_at', message: 'is not a real date-time' }]);
    const pkg = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('manifested');
    // A leap day that exists is a date like any other.
    const leap = ok(
      await raw('POST', api('test', '/ops/scans'), {
        headers: auth(ops),
        body: jsonBody({ scans: [scan({ tracking_number: n, occurred_at: '2024-02-29T12:00:00Z' })] }),
      }),
    );
    count('body');
    expect(leap.results[0].result).toBe('applied');
  });

  it('POST /ops/scans: the largest body the limit allows is read; one byte past it is 413', async () => {
    const limit = 5 * 1024 * 1024;
    const base = jsonBody({ scans: [scan()] });
    const padded = `${base.slice(0, -1)}${' '.repeat(limit - base.length)}}`;
    expect(Buffer.byteLength(padded)).toBe(limit);
    const atLimit = await raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: padded });
    count('body');
    expect(ok(atLimit).results).toHaveLength(1);
    const past = await raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: `${padded} `, keepAlive: true });
    count('body');
    envelope(past, 413, 'payload_too_large');
    // Past the limit without a content-length (chunked): refused as well.
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: api('test', '/ops/scans'),
          agent: keepAlive,
          headers: { ...auth(ops), 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text,
              json: JSON.parse(text),
              bytes: Buffer.alloc(0),
            });
          });
        },
      );
      request.setTimeout(30_000, () => request.destroy(new Error('hang')));
      request.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
      );
      for (let i = 0; i < 6; i++) request.write(' '.repeat(1024 * 1024));
      request.end(base);
    });
    count('body');
    envelope(chunked, 413, 'payload_too_large');
  });

  it('deep nesting, duplicate keys, wrong types and non-JSON are 4xx on scans and simulate', async () => {
    const posts = [
      api('test', '/ops/scans'),
      api('test', `/packages/${owned.dailyNumber}/simulate`),
      api('test', `/manifests/${owned.containerManifest}/simulate`),
    ];
    const bodies: [string, number, string][] = [
      [`{"scans":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 400, 'invalid_json'],
      [`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, 400, 'invalid_json'],
      ['{"scans":[],"scans":[]}', 422, 'validation_failed'],
      ['{"status":"delivered","status":"\\u0000"}', 422, 'validation_failed'],
      ['{"status":"\\ud800"}', 422, 'validation_failed'],
      ['{"status":["delivered"]}', 422, 'validation_failed'],
      ['{"status":"received","code":"\\u0000"}', 422, 'validation_failed'],
      ['{"status":"exception","text":"\\udc00"}', 422, 'validation_failed'],
      ['{"status":"received","text":"' + 'x'.repeat(501) + '"}', 422, 'validation_failed'],
      ['{"__proto__":{"status":"delivered"}}', 422, 'validation_failed'],
      ['[]', 422, 'validation_failed'],
      ['null', 422, 'validation_failed'],
      ['"x"', 422, 'validation_failed'],
      ['{', 400, 'invalid_json'],
      ['\u0000', 400, 'invalid_json'],
      ['\ufeff{}', 400, 'invalid_json'],
      ['{"scans":[1e999]}', 422, 'validation_failed'],
    ];
    // On /ops/scans a scan that is no object is refused on its own (200, listed), as issue 13 asks.
    const perScan = await raw('POST', posts[0], { headers: auth(ops), body: '{"scans":[1e999,null,"x",[]]}' });
    count('body');
    expect(ok(perScan)).toMatchObject({ applied: 0, refused: 4 });
    for (const path of posts) {
      const token = path.includes('/ops/') ? ops : ownerTest.get();
      for (const [body, status, code] of bodies) {
        if (body === '{"scans":[1e999]}' && path.includes('/ops/')) continue;
        const answer = await raw('POST', path, { headers: auth(token), body });
        count('body');
        // Which of 422 / 400 a well-formed JSON of the wrong shape gets is the route's; never a 5xx.
        expect(answer.status, `${path} ${body.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        if (status === 400) envelope(answer, 400, code);
        else envelope(answer, answer.status === 400 ? 400 : 422, answer.status === 400 ? answer.json?.error?.code : code);
      }
    }
    // None of it moved the owner's package.
    const pkg = ok(await raw('GET', api('test', `/packages/${owned.dailyNumber}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('manifested');
  });

  it('simulate: a target of the wrong kind is 422 naming status, an illegal one 409', async () => {
    const n = tracking('ATS');
    await createDaily(ownerTest.get(), n);
    envelope(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"departed"}',
      }),
      422,
      'validation_failed',
      'status',
    );
    // Already there: a walk of no steps, 200 with nothing written.
    expect(
      ok(
        await raw('POST', api('test', `/packages/${n}/simulate`), {
          headers: auth(ownerTest.get()),
          body: '{"status":"manifested"}',
        }),
      ).status,
    ).toBe('manifested');
    const { rows } = await pgPool().query('SELECT 1 FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2', [
      owner.accountId,
      n,
    ]);
    expect(rows).toEqual([]);
    ok(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"delivered"}',
      }),
    );
    envelope(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"received"}',
      }),
      409,
      'illegal_transition',
    );
    envelope(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"cancelled"}',
      }),
      409,
      'illegal_transition',
    );
    envelope(
      await raw('POST', api('test', `/manifests/${owned.containerManifest}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"delivered"}',
      }),
      422,
      'validation_failed',
      'status',
    );
    envelope(
      await raw('POST', api('test', `/manifests/${owned.dailyManifest}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"departed"}',
      }),
      422,
      'validation_failed',
      'status',
    );
    count('body', 4);
  });

  it('cancel with a body, an oversized body and a hostile content type: answered, never a hang', async () => {
    const n = tracking('ATB');
    await createDaily(ownerTest.get(), n);
    const big = await raw('POST', api('test', `/packages/${n}/cancel`), {
      headers: auth(ownerTest.get()),
      body: ' '.repeat(5 * 1024 * 1024 + 1),
      keepAlive: true,
    });
    count('body');
    expect([200, 413]).toContain(big.status);
    if (big.status === 413) envelope(big, 413, 'payload_too_large');
    const odd = await raw('POST', api('test', `/packages/${n}/cancel`), {
      headers: { ...auth(ownerTest.get()), 'content-type': 'text/plain; charset=utf-16' },
      body: '\u0000\ud800',
    });
    count('body');
    expect(odd.status, odd.text).toBeLessThan(500);
  });
});

// ---------------------------------------------------------------- who may ask

describe('tokens: ops on shipper routes, shippers on ops, revoked, the other environment', () => {
  it('a ck_ops_ token on every shipper route is 403; a shipper token on /ops/scans is 403; revoked tokens are 401', async () => {
    for (const pattern of LIFECYCLE_PATTERNS) {
      const method = methodOf(pattern);
      for (const env of ['test', 'live'] as const) {
        const route = apiRoutes().find((r) => r.pattern === pattern);
        if (route?.testOnly && env === 'live') continue;
        const path = api(env, fill(pattern, env === 'live' ? { id: owned.liveManifest, trackingNumber: owned.liveNumber } : {}));
        const body =
          method === 'POST' ? jsonBody(pattern === '/ops/scans' ? { scans: [scan()] } : { status: 'delivered' }) : undefined;
        const headers = { 'x-forwarded-for': address() };
        if (pattern === '/ops/scans') {
          envelope(
            await raw(method, path, {
              headers: { ...headers, ...auth(env === 'test' ? owner.tokens.test : owner.tokens.live) },
              body,
            }),
            403,
            'forbidden',
          );
          envelope(await raw(method, path, { headers: { ...headers, ...auth(revokedOps) }, body }), 401, 'unauthorized');
          envelope(
            await raw(method, path, { headers: { ...headers, authorization: `Bearer ${ops}x` }, body }),
            401,
            'unauthorized',
          );
        } else {
          envelope(await raw(method, path, { headers: { ...headers, ...auth(ops) }, body }), 403, 'forbidden');
          // Any ck_ops_ token is refused here before it is looked up: a revoked one learns nothing more.
          envelope(await raw(method, path, { headers: { ...headers, ...auth(revokedOps) }, body }), 403, 'forbidden');
          if (env === 'test')
            envelope(await raw(method, path, { headers: { ...headers, ...auth(revokedShipper) }, body }), 401, 'unauthorized');
          envelope(
            await raw(method, path, {
              headers: { ...headers, ...auth(env === 'test' ? owner.tokens.live : owner.tokens.test) },
              body,
            }),
            401,
            'wrong_environment',
          );
        }
        count('token', 3);
      }
    }
    // Nothing moved.
    const pkg = ok(await raw('GET', api('test', `/packages/${owned.dailyNumber}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('manifested');

    function scan() {
      return {
        scan_id: `atk-${randomUUID()}`,
        location: 'JFK',
        occurred_at: new Date().toISOString(),
        event: 'received',
        tracking_number: owned.dailyNumber,
      };
    }
  });

  it("another account's ids and tracking numbers are 404 on every id route, and change nothing", async () => {
    for (const pattern of LIFECYCLE_PATTERNS.filter((p) => p.includes(':'))) {
      const method = methodOf(pattern);
      for (const ids of [{}, { id: owned.dailyManifest, trackingNumber: owned.containerNumbers[0] }]) {
        const body = method === 'POST' ? jsonBody({ status: 'delivered' }) : undefined;
        const answer = await raw(method, api('test', fill(pattern, ids)), { headers: auth(strangerTest.get()), body });
        count('cross-account / env');
        envelope(answer, 404, 'not_found');
        // And the owner's live ids from the owner's own test token: the other environment's are not there.
        const cross = await raw(
          method,
          api('test', fill(pattern, { id: owned.liveManifest, trackingNumber: owned.liveNumber })),
          { headers: auth(ownerTest.get()), body },
        );
        count('cross-account / env');
        envelope(cross, 404, 'not_found');
      }
    }
    for (const n of [...owned.containerNumbers, owned.dailyNumber]) {
      const pkg = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
      expect(pkg.status).toBe('manifested');
    }
    const live = ok(await raw('GET', api('live', `/packages/${owned.liveNumber}`), { headers: auth(ownerLive.get()) }));
    expect(live.status).toBe('manifested');
  });

  it('a scan on the live path does not reach a test package, nor a test scan a live one', async () => {
    const answer = ok(
      await raw('POST', api('live', '/ops/scans'), {
        headers: auth(ops),
        body: jsonBody({
          scans: [
            {
              scan_id: `atk-${randomUUID()}`,
              tracking_number: owned.dailyNumber,
              event: 'received',
              location: 'JFK',
              occurred_at: new Date().toISOString(),
            },
          ],
        }),
      }),
    );
    count('cross-account / env');
    expect(answer.results[0]).toMatchObject({ result: 'refused', error: { code: 'not_found' } });
    const test = ok(
      await raw('POST', api('test', '/ops/scans'), {
        headers: auth(ops),
        body: jsonBody({
          scans: [
            {
              scan_id: `atk-${randomUUID()}`,
              tracking_number: owned.liveNumber,
              event: 'received',
              location: 'JFK',
              occurred_at: new Date().toISOString(),
            },
          ],
        }),
      }),
    );
    count('cross-account / env');
    expect(test.results[0]).toMatchObject({ result: 'refused', error: { code: 'not_found' } });
  });
});

// ---------------------------------------------------------------- probes

describe('probes', () => {
  it('/healthz, /readyz, /metrics: hostile methods, queries and paths are answered with the envelope or the probe, never a 5xx', async () => {
    for (const probe of ['/healthz', '/readyz']) {
      for (const suffix of ['', '?x=%00', '?%ZZ', '?a=1&a=2']) {
        const answer = await raw('GET', probe + suffix);
        count('probe');
        expect(answer.status, answer.text).toBe(200);
        expect(answer.headers['x-request-id']).toMatch(/^req_/);
      }
      envelope(await raw('POST', probe, { body: '{}' }), 405, 'method_not_allowed');
      envelope(await raw('DELETE', probe), 405, 'method_not_allowed');
      const head = await raw('HEAD', probe);
      expect(head.status).toBe(200);
      count('probe', 3);
    }
    // No METRICS_TOKEN on this server: /metrics is not here, whatever the caller sends.
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer x' },
      { authorization: `Bearer ${'x'.repeat(8_000)}` },
      { authorization: 'Bearer \u00ff' },
    ]) {
      envelope(await raw('GET', '/metrics', { headers }), 404, 'not_found');
      count('probe');
    }
    for (const path of [
      '/healthz/',
      '/healthz/..',
      '/healthz%00',
      '/readyz/%ZZ',
      '/metrics/../healthz',
      `/healthz/${'x'.repeat(10_000)}`,
    ]) {
      const answer = await raw('GET', path);
      count('probe');
      expect(answer.status, `${path.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});

// ---------------------------------------------------------------- state changes, two at once

describe('two at once', () => {
  async function events(n: string) {
    const { rows } = await pgPool().query<{ status: string; previous_status: string; applied: boolean; source: string }>(
      `SELECT status, previous_status, applied, source FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2 ORDER BY occurred_at, id`,
      [owner.accountId, n],
    );
    return rows;
  }

  it('two parallel cancels of a package: both 200 cancelled, one cancel event', async () => {
    for (let round = 0; round < 5; round++) {
      const n = tracking('AT2');
      await createDaily(ownerTest.get(), n);
      const answers = await Promise.all(
        [1, 2, 3].map(() => raw('POST', api('test', `/packages/${n}/cancel`), { headers: auth(ownerTest.get()) })),
      );
      count('concurrency', 3);
      for (const a of answers) expect(ok(a).status).toBe('cancelled');
      expect((await events(n)).map((e) => `${e.previous_status}>${e.status}`)).toEqual(['manifested>cancelled']);
    }
  });

  it('two parallel cancels of a container manifest: both 200, every package cancelled once', async () => {
    for (let round = 0; round < 3; round++) {
      const numbers = [tracking('ATK'), tracking('ATK')];
      const { manifestId } = await createContainer(ownerTest.get(), numbers);
      const answers = await Promise.all(
        [1, 2].map(() => raw('POST', api('test', `/manifests/${manifestId}/cancel`), { headers: auth(ownerTest.get()) })),
      );
      count('concurrency', 2);
      for (const a of answers) expect(ok(a)).toMatchObject({ status: 'cancelled', totals: { by_status: { cancelled: 2 } } });
      for (const n of numbers) expect((await events(n)).map((e) => e.status)).toEqual(['cancelled']);
    }
  });

  it('cancel racing a scan of the same package: exactly one wins, and a scan of the container too', async () => {
    for (let round = 0; round < 4; round++) {
      const numbers = [tracking('ATR')];
      const { manifestId, containerId } = await createContainer(ownerTest.get(), numbers);
      const [cancel, scanned] = await Promise.all([
        raw('POST', api('test', `/manifests/${manifestId}/cancel`), { headers: auth(ownerTest.get()) }),
        raw('POST', api('test', '/ops/scans'), {
          headers: auth(ops),
          body: jsonBody({
            scans: [
              {
                scan_id: `atk-${randomUUID()}`,
                container_id: containerId,
                event: 'received',
                location: 'JFK',
                occurred_at: new Date().toISOString(),
              },
            ],
          }),
        }),
      ]);
      count('concurrency', 2);
      const scanWon = ok(scanned).results[0].result === 'applied';
      if (scanWon) envelope(cancel, 409, 'not_cancellable');
      else {
        expect(ok(cancel).status).toBe('cancelled');
        expect(scanned.json.results[0]).toMatchObject({
          result: 'refused',
          error: { code: 'illegal_transition', current_status: 'cancelled' },
        });
      }
    }
  });

  it('two simulate calls at once: at most one walk, a legal chain of events, 200 or 409, never a 5xx', async () => {
    for (let round = 0; round < 4; round++) {
      const n = tracking('ATM');
      await createDaily(ownerTest.get(), n);
      const answers = await Promise.all(
        ['delivered', 'delivered', 'exception'].map((status) =>
          raw('POST', api('test', `/packages/${n}/simulate`), { headers: auth(ownerTest.get()), body: jsonBody({ status }) }),
        ),
      );
      count('concurrency', 3);
      for (const a of answers) {
        expect([200, 409], a.text).toContain(a.status);
        if (a.status === 409) envelope(a, 409, 'illegal_transition');
      }
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
      const chain = await events(n);
      let current = 'manifested';
      for (const e of chain) {
        expect(e.previous_status).toBe(current);
        current = e.status;
      }
      const final = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
      expect(final.status).toBe(current);
      // Each status of the walk once: no doubled intermediate steps.
      expect(new Set(chain.map((e) => e.status)).size).toBe(chain.length);
    }
  });

  it('two manifest simulates at once on a container: one walk, its packages carried once', async () => {
    const numbers = [tracking('ATW'), tracking('ATW')];
    const { manifestId } = await createContainer(ownerTest.get(), numbers);
    const answers = await Promise.all(
      [1, 2].map(() =>
        raw('POST', api('test', `/manifests/${manifestId}/simulate`), {
          headers: auth(ownerTest.get()),
          body: jsonBody({ status: 'arrived' }),
        }),
      ),
    );
    count('concurrency', 2);
    for (const a of answers) {
      expect([200, 409], a.text).toContain(a.status);
      if (a.status === 200) expect(a.json.status).toBe('arrived');
    }
    for (const n of numbers) {
      const chain = await events(n);
      expect(new Set(chain.map((e) => e.status)).size, JSON.stringify(chain)).toBe(chain.length);
    }
  });

  it('the same scan batch sent twice at once (and reversed): each scan applied once, the rest duplicates, never a 5xx', async () => {
    for (let round = 0; round < 3; round++) {
      const numbers = Array.from({ length: 20 }, () => tracking('ATQ'));
      for (const n of numbers) await createDaily(ownerTest.get(), n);
      const batch = numbers.map((n) => ({
        scan_id: `atk-${randomUUID()}`,
        tracking_number: n,
        event: 'received',
        location: 'JFK',
        occurred_at: new Date(Date.now() - 1_000).toISOString(),
      }));
      const reversed = [...batch].reverse();
      const answers = await Promise.all(
        [batch, batch, reversed, reversed].map((scans) =>
          raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: jsonBody({ scans }) }),
        ),
      );
      count('concurrency', 4);
      for (const a of answers) expect(a.status, a.text.slice(0, 300)).toBe(200);
      const applied = new Map<string, number>();
      for (const a of answers)
        for (const r of a.json.results) if (r.result === 'applied') applied.set(r.scan_id, (applied.get(r.scan_id) ?? 0) + 1);
      expect(applied.size).toBe(batch.length);
      expect([...applied.values()].every((v) => v === 1)).toBe(true);
      for (const a of answers) for (const r of a.json.results) expect(['applied', 'duplicate']).toContain(r.result);
      for (const n of numbers.slice(0, 3)) expect((await events(n)).map((e) => e.status)).toEqual(['received']);
    }
  });
});

// ---------------------------------------------------------------- the portal

interface Shipper {
  cookie: string;
  csrf: string;
  accountId: string;
  token: string;
}

async function signUp(label: string): Promise<Shipper> {
  const id = randomUUID().slice(0, 8);
  const email = `${label.toLowerCase()}-${id}@example.com`;
  const asked = await raw('POST', '/portal-api/auth/sign-up', {
    headers: { 'x-forwarded-for': address() },
    body: jsonBody({ company: `${label} ${id}`, email, password: `pw-${id}-correct-horse` }),
  });
  expect(asked.status, asked.text).toBe(202);
  // Signed in by following the link mailed for the sign-up (support/portal.ts).
  const response = await raw('POST', '/portal-api/auth/verify-email', {
    headers: { 'x-forwarded-for': address() },
    body: jsonBody({ token: await signUpTokenFromOutbox(email) }),
  });
  expect(response.status, response.text).toBe(201);
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).join('; ');
  const cookie = /carrier_session=[^;]+/.exec(setCookie)?.[0] ?? '';
  const secret = decodeURIComponent(cookie.split('=')[1] ?? '');
  const row = await db.session.findUniqueOrThrow({
    where: { id: createHash('sha256').update(secret).digest('hex') },
    select: { csrfToken: true, accountId: true },
  });
  const token = (await createApiToken({ accountId: row.accountId, environment: 'test' })).token;
  return { cookie, csrf: row.csrfToken, accountId: row.accountId, token };
}

function portal(
  who: Shipper | null,
  method: string,
  path: string,
  options: { env?: Env | null; body?: string; csrf?: string | null } = {},
) {
  const headers: Record<string, string> = { 'x-forwarded-for': address() };
  if (who) headers.cookie = who.cookie;
  const csrf = options.csrf === undefined ? who?.csrf : options.csrf;
  if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
  const env = options.env === undefined ? 'test' : options.env;
  if (env) headers['x-carrier-environment'] = env;
  return raw(method, path, { headers, body: options.body ?? (method === 'GET' ? undefined : '{}') });
}

describe('portal-api lifecycle routes', () => {
  let a: Shipper;
  let b: Shipper;
  const data = { manifest: '', container: [] as string[], daily: '' };
  const PORTAL = portalRoutes().filter((r) => /^\/portal-api\/(packages|manifests|exports|dashboard)/.test(r.pattern));

  beforeAll(async () => {
    [a, b] = await Promise.all([signUp('PortalAttacked'), signUp('PortalAttacker')]);
    data.container = [tracking('APC'), tracking('APC')];
    data.manifest = (await createContainer(a.token, data.container)).manifestId;
    data.daily = tracking('APD');
    await createDaily(a.token, data.daily);
  });

  const fillPortal = (pattern: string, ids: { id?: string; trackingNumber?: string } = {}) =>
    pattern.replace(':id', ids.id ?? data.manifest).replace(':TrackingNumber', ids.trackingNumber ?? data.daily);

  it('reads the route table: every lifecycle portal route is attacked', () => {
    expect(PORTAL.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        '/portal-api/dashboard',
        '/portal-api/exports/packages',
        '/portal-api/manifests',
        '/portal-api/manifests/:id',
        '/portal-api/manifests/:id/cancel',
        '/portal-api/manifests/:id/packages',
        '/portal-api/manifests/:id/simulate',
        '/portal-api/manifests/:id/status',
        '/portal-api/packages',
        '/portal-api/packages/:TrackingNumber',
        '/portal-api/packages/:TrackingNumber/cancel',
        '/portal-api/packages/:TrackingNumber/events',
        '/portal-api/packages/:TrackingNumber/simulate',
      ]),
    );
  });

  it('no session: 401 on every route and method; hostile ids: 404 before the session', async () => {
    for (const route of PORTAL) {
      for (const method of route.methods) {
        envelope(await portal(null, method, fillPortal(route.pattern)), 401, 'unauthorized');
        count('portal');
        if (!route.pattern.includes(':')) continue;
        for (const segment of ['%ZZ', '%00', 'a%00b', '%ED%A0%80', '%2F', 'x'.repeat(10_000), '..']) {
          const path = route.pattern.replace(/:[A-Za-z]+/, segment);
          const answer = await portal(a, method, path);
          count('portal');
          // `..` is resolved by the router (a different route or none): whatever it is, a 4xx envelope, never a 5xx.
          if (segment === '..') expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
          else envelope(answer, 404, 'not_found');
        }
      }
    }
  });

  it("another account's session sees none of it: 404 for ids, its own empty lists, nothing changed", async () => {
    for (const route of PORTAL) {
      for (const method of route.methods) {
        if (route.pattern === '/portal-api/manifests' && method === 'POST') continue; // a create: its own
        const answer = await portal(b, method, fillPortal(route.pattern), {
          body: route.pattern.endsWith('/simulate') ? jsonBody({ status: 'delivered' }) : undefined,
        });
        count('portal');
        if (route.pattern.includes(':')) envelope(answer, 404, 'not_found');
        else expect(answer.status, answer.text.slice(0, 200)).toBe(200);
        const path = fillPortal(route.pattern);
        for (const n of [...data.container, data.daily, data.manifest])
          if (!path.includes(n)) expect(answer.text, route.pattern).not.toContain(n);
        expect(answer.text).not.toContain('Beverly Hills');
      }
    }
    const mine = ok(await portal(a, 'GET', `/portal-api/packages/${data.daily}`));
    expect(mine.status).toBe('manifested');
  });

  it('the live environment header does not reach test data; a missing or hostile header is 400', async () => {
    for (const route of PORTAL.filter((r) => r.pattern.includes(':'))) {
      for (const method of route.methods) {
        const answer = await portal(a, method, fillPortal(route.pattern), {
          env: 'live',
          body: route.pattern.endsWith('/simulate') ? jsonBody({ status: 'delivered' }) : undefined,
        });
        count('portal');
        envelope(answer, 404, 'not_found');
      }
    }
    // A download link naming the environment twice names none: 400, never the first of them.
    for (const query of ['environment=live&environment=test', 'environment=test&environment=live']) {
      envelope(
        await raw('GET', `/portal-api/exports/packages?${query}`, { headers: { cookie: a.cookie } }),
        400,
        'environment_required',
      );
      envelope(
        await raw('GET', `/portal-api/manifests/${data.manifest}/export?${query}`, { headers: { cookie: a.cookie } }),
        400,
        'environment_required',
      );
      count('portal', 2);
    }
    for (const env of ['', 'LIVE', 'test\u00ff', 'production', 'test,live', 'x'.repeat(8_000)]) {
      const answer = await raw('GET', '/portal-api/packages', { headers: { cookie: a.cookie, 'x-carrier-environment': env } });
      count('portal');
      envelope(answer, 400, 'environment_required');
    }
  });

  it('hostile queries on the portal lists and the export: 422 naming the parameter, never a 5xx', async () => {
    const cases: [string, string][] = [
      ['/portal-api/packages?status=a&status=b', 'status'],
      ['/portal-api/packages?limit=0', 'limit'],
      ['/portal-api/packages?limit=101', 'limit'],
      ['/portal-api/packages?limit=NaN', 'limit'],
      ['/portal-api/packages?cursor=garbage', 'cursor'],
      ['/portal-api/packages?from=2026-02-30', 'from'],
      ['/portal-api/packages?to=0000-01-01', 'to'],
      ['/portal-api/packages?tracking_number=a%00b', 'tracking_number'],
      ['/portal-api/packages?nope=1', 'nope'],
      ['/portal-api/exports/packages?nope=1', 'nope'],
      ['/portal-api/exports/packages?status=a&status=b', 'status'],
      ['/portal-api/exports/packages?limit=10', 'limit'],
      ['/portal-api/exports/packages?cursor=x', 'cursor'],
      ['/portal-api/exports/packages?from=9999-12-31', 'from'],
      ['/portal-api/exports/packages?manifest_id=%00', 'manifest_id'],
      ['/portal-api/manifests?q=%00', 'q'],
      ['/portal-api/manifests?from=2026-02-30', 'from'],
      ['/portal-api/manifests?service=%ED%A0%80%00', 'service'],
      ['/portal-api/manifests?after=%00', 'after'],
      ['/portal-api/manifests?before=a%00', 'before'],
      // A range that holds nothing is explained rather than answered with an empty list.
      ['/portal-api/manifests?from=2026-11-20&to=2026-11-10', 'to'],
      ['/portal-api/packages?from=2026-11-20&to=2026-11-10', 'to'],
      // The manifests list and a manifest's packages run the API's operations (one shape, one reader): what the
      // portal's own readers once took as the first page is named, as the Packages list and the API name it.
      ['/portal-api/manifests?limit=0&limit=NaN&after=%E0%A4&before=garbage&type=box', 'limit'],
      ['/portal-api/manifests?type=box', 'type'],
      ['/portal-api/manifests?cursor=garbage', 'cursor'],
      [`/portal-api/manifests/${data.manifest}/packages?cursor=${'x'.repeat(10_000)}&limit=-1`, 'cursor'],
      [`/portal-api/manifests/${data.manifest}/packages?limit=-1`, 'limit'],
      [`/portal-api/manifests/${data.manifest}/packages?cursor=%00&cursor=%ZZ`, 'cursor'],
      // Keyset cursors with times no row has (a negative year PostgreSQL refused: a 500 once): refused before any query.
      ...[
        '0000-01-01T00:00:00.000Z',
        '-271821-04-20T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '1970-01-01T00:00:00.000Z',
      ].flatMap((t): [string, string][] => [
        [`/portal-api/manifests?cursor=${Buffer.from(JSON.stringify([t, 0, 'MAN-X'])).toString('base64url')}`, 'cursor'],
        [
          `/portal-api/manifests/${data.manifest}/packages?cursor=${Buffer.from(JSON.stringify([t, 0, '1'])).toString('base64url')}`,
          'cursor',
        ],
      ]),
    ];
    for (const [path, field] of cases) {
      const answer = await portal(a, 'GET', path);
      count('portal');
      envelope(answer, 422, 'validation_failed', field);
    }
    // The lenient ones: 200, never a 5xx.
    for (const path of [
      '/portal-api/dashboard?x=%00&x=%ZZ',
      '/portal-api/packages?service=%ZZ',
      '/portal-api/manifests?service=%ZZ',
      '/portal-api/manifests?q=%25%5F',
      // Next leaves `__proto__` out of the URL it hands the handler: the list, unfiltered.
      '/portal-api/packages?__proto__=1',
      '/portal-api/manifests?__proto__=1',
    ]) {
      const answer = await portal(a, 'GET', path);
      count('portal');
      expect(answer.status, `${path.slice(0, 80)}: ${answer.text.slice(0, 200)}`).toBe(200);
    }
  });

  it('hostile simulate bodies through the portal: 4xx, nothing moved', async () => {
    for (const body of [
      '{"status":"\\u0000"}',
      '{"status":"delivered","code":"\\ud800"}',
      '{"status":"delivered","status":"x"}',
      `{"status":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
      'x'.repeat(1_000_001),
    ]) {
      for (const path of [`/portal-api/packages/${data.daily}/simulate`, `/portal-api/manifests/${data.manifest}/simulate`]) {
        const answer = await portal(a, 'POST', path, { body });
        count('portal');
        expect(answer.status, `${path} ${body.slice(0, 30)}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        envelope(answer, answer.status, answer.json?.error?.code);
      }
    }
    expect(ok(await portal(a, 'GET', `/portal-api/packages/${data.daily}`)).status).toBe('manifested');
  });

  it('a stale tab: signed out, then every route is 401, mutations included', async () => {
    const c = await signUp('PortalStale');
    const n = tracking('APS');
    await createDaily(c.token, n);
    ok(await portal(c, 'DELETE', '/portal-api/session'));
    for (const route of PORTAL) {
      for (const method of route.methods) {
        const answer = await portal(c, method, route.pattern.replace(':TrackingNumber', n).replace(':id', 'MAN-X'));
        count('portal');
        envelope(answer, 401, 'unauthorized');
      }
    }
    const still = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(c.token) }));
    expect(still.status).toBe('manifested');
  });

  it('two tabs cancel the same package and its manifest at once (portal and API): 200s, one cancel event each', async () => {
    const n = tracking('APT');
    const { manifestId } = await createContainer(a.token, [n]);
    const answers = await Promise.all([
      portal(a, 'POST', `/portal-api/packages/${n}/cancel`),
      portal(a, 'POST', `/portal-api/manifests/${manifestId}/cancel`),
      raw('POST', api('test', `/packages/${n}/cancel`), { headers: auth(a.token) }),
      raw('POST', api('test', `/manifests/${manifestId}/cancel`), { headers: auth(a.token) }),
    ]);
    count('concurrency', 4);
    for (const answer of answers) expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const { rows } = await pgPool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2`,
      [a.accountId, n],
    );
    expect(rows[0]?.n).toBe(1);
  });
});
