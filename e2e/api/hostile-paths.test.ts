import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '@/lib/http/routes';
import { tracking } from './support/api';
import {
  LIFECYCLE_PATTERNS,
  NEXT_START,
  address,
  api,
  auth,
  count,
  createDaily,
  envelope,
  methodOf,
  ok,
  owned,
  ownerLive,
  ownerTest,
  raw,
  reportAttacks,
  setUpAttackedAccounts,
  socketRequest,
  strangerTest,
} from './support/hostile-shipments';

// Hostile path segments on the manifests, packages and scans routes (every id route of the route table, in both
// environments): segments no id can be, `..` and `%2E%2E` that must never cross an environment or an account, and
// bytes in the request line no client sends. support/hostile-shipments.ts has the raw HTTP and the attacked accounts.

beforeAll(setUpAttackedAccounts);
afterAll(() => reportAttacks('hostile-paths'));

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

  it('paths under /api and /version-test that no operation has answer the API 404 envelope, in every method', async () => {
    const token = ownerTest.get();
    const paths = [
      '/api',
      '/version-test',
      '/api/1.0/wf/rate', // another version
      '/api/x',
      '/api/1.1/wf/../../x', // dot segments out of the contract's paths
      '/api/1.1/wf/%2E%2E/%2e%2e/x',
      '/version-test/x',
      '/version-test/api/x',
      '/version-test/api/1.1/../../x',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const answer = await raw(method, path, {
          headers: { ...auth(token), 'x-forwarded-for': address() },
          body: method === 'POST' || method === 'PUT' ? '{"weight":1}' : undefined,
        });
        count('path segment');
        envelope(answer, 404, 'not_found');
        expect(answer.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
        expect(answer.headers['access-control-allow-origin'], `${method} ${path}`).toBe('*');
      }
      // A browser's preflight is answered as the API answers every OPTIONS (204), so the 404 that follows is readable.
      const preflight = await raw('OPTIONS', path, {
        headers: { origin: 'https://shop.example', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect([preflight.status, preflight.headers['access-control-allow-origin']], path).toEqual([204, '*']);
      expect(preflight.headers['access-control-allow-headers'], path).toMatch(/Authorization/);
    }
    // The client's request id is echoed, as the API's own answers do.
    const echoed = await raw('GET', '/api/1.0/wf/rate', { headers: { 'x-request-id': 'client-id-12345' } });
    expect(echoed.headers['x-request-id']).toBe('client-id-12345');
    expect(echoed.json?.error?.request_id).toBe('client-id-12345');
    // The routes of their own under /api still answer: the public reference and public tracking.
    const reference = await raw('GET', '/api/1.1/openapi.json');
    expect(reference.status).toBe(200);
    expect(reference.json?.openapi).toMatch(/^3\./);
    // Public tracking by a tracking number asks for the postal code: its own answer, not the catch-all's.
    const track = await raw('GET', `/api/track/${'Z'.repeat(12)}`);
    expect([track.status, track.json?.error?.details?.[0]?.path], track.text.slice(0, 200)).toEqual([422, 'postal_code']);
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
