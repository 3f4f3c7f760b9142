import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { pruneRequestLog } from '@/lib/request-log/retention';
import { flushRequestLog, recordRequest, setRequestLogEnabled, type RequestLogLine } from '@/lib/request-log/writer';
import { call, expectError, newAccount, type CallResult, type Env, type TestAccount } from './support/api';
import { portalCall, signUp, type Shipper } from './support/portal';
import { containerDetail, containerSample, packageSample, rateSampleExpress } from './support/samples';

// The request log on the real server: every API request whose token is known is written (in batches, off
// the request's path) with its bodies redacted and cut to 16 KB; GET /requests and GET /requests/{id} read it per
// account and environment; the portal's writes and errors are written too; lines older than 30 days are deleted.

interface Entry {
  id: string;
  object: string;
  created_at: string;
  source: string;
  method: string;
  path: string;
  query: string;
  status: number;
  duration_ms: number;
  token: { id: string; name: string; prefix: string } | null;
  user: { id: string; email: string | null } | null;
  client_address: string | null;
  user_agent: string | null;
  request: { body: string | null; bytes: number; truncated: boolean };
  response: { body: string | null; bytes: number; truncated: boolean };
  error_code: string | null;
  resources: { type: string; id: string }[];
}

let acme: TestAccount;
let globex: TestAccount;
const suffix = Date.now().toString(36).toUpperCase();

const get = (account: TestAccount, path: string, env: Env = 'test') =>
  call(path, { method: 'GET', token: account.tokens[env], env });

/** The request's line, once written (lines are written within a second of their answer). */
async function logged(account: TestAccount, requestId: string, env: Env = 'test'): Promise<Entry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const result = await get(account, `/requests/${encodeURIComponent(requestId)}`, env);
    if (result.status === 200) return result.json as Entry;
    expect(result.status, result.text).toBe(404);
    if (Date.now() > deadline) throw new Error(`request ${requestId} was not logged within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const idOf = (result: CallResult) => result.headers.get('x-request-id') ?? '';

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
});

describe('GET /requests/{id}', () => {
  it('shows a rate request as it was sent and answered, with its token and timing', async () => {
    const sent = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleExpress(),
      headers: { 'user-agent': 'acme-wms/1.0' },
    });
    expect(sent.status, sent.text).toBe(200);
    const entry = await logged(acme, idOf(sent));
    expect(entry).toMatchObject({
      id: idOf(sent),
      object: 'request',
      source: 'api',
      method: 'POST',
      path: '/wf/rate',
      query: '',
      status: 200,
      user: null,
      user_agent: 'acme-wms/1.0',
      error_code: null,
    });
    expect(JSON.parse(entry.request.body ?? '')).toEqual(rateSampleExpress());
    expect(JSON.parse(entry.response.body ?? '')).toEqual(sent.json);
    expect(entry.request.bytes).toBe(Buffer.byteLength(JSON.stringify(rateSampleExpress())));
    expect(entry.response.truncated).toBe(false);
    expect(entry.token?.prefix).toBeTruthy();
    expect(acme.tokens.test.startsWith(entry.token?.prefix ?? 'none')).toBe(true);
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
    expect(entry.client_address).toBeTruthy();
    expect(Date.now() - Date.parse(entry.created_at)).toBeLessThan(60_000);
  });

  it('links a package to its manifest and package, and an error to its code', async () => {
    const ok = await call('/wf/package', { token: acme.tokens.test, body: packageSample(`RL${suffix}1`) });
    expect(ok.status, ok.text).toBe(200);
    const entry = await logged(acme, idOf(ok));
    expect(entry.resources).toEqual([
      { type: 'manifest', id: ok.json.ManifestID },
      { type: 'package', id: `RL${suffix}1` },
    ]);
    const refused = await call('/wf/package', { token: acme.tokens.test, body: { package: { TrackingNumber: `RL${suffix}2` } } });
    expect(refused.status).toBe(422);
    const error = await logged(acme, idOf(refused));
    expect(error).toMatchObject({ status: 422, error_code: 'validation_failed', resources: [] });
  });

  it('never keeps a token or a signing secret', async () => {
    const created = await call('/webhooks', {
      token: acme.tokens.test,
      body: { url: 'https://93.184.215.14/hooks/log', events: ['package.sorting'], description: `key ${acme.tokens.live}` },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    const entry = await logged(acme, idOf(created));
    expect(JSON.parse(entry.response.body ?? '').secret).toBe('[redacted]');
    expect(entry.resources).toEqual([{ type: 'webhook_endpoint', id: created.json.id }]);
    const { rows } = await pgPool().query<{ text: string }>(
      `SELECT row_to_json(r)::text AS text FROM request_logs r WHERE account_id = $1`,
      [acme.accountId],
    );
    const everything = rows.map((r) => r.text).join('\n');
    expect(everything).not.toContain(created.json.secret);
    expect(everything).not.toContain(acme.tokens.test);
    expect(everything).not.toContain(acme.tokens.live);
    expect(everything).not.toMatch(/whsec_|ck_(test|live)_/);
  });

  it('keeps the first 16 KB of a large body and its whole size', async () => {
    const numbers = Array.from({ length: 400 }, (_, i) => `RLC${suffix}${i}`);
    const body = containerSample(`RLC-${suffix}`, numbers);
    body.ContainerDetails = numbers.map((n) => containerDetail(n));
    const sent = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(sent.status, sent.text).toBe(200);
    const entry = await logged(acme, idOf(sent));
    expect(entry.request.bytes).toBe(Buffer.byteLength(JSON.stringify(body)));
    expect(entry.request.bytes).toBeGreaterThan(16 * 1024);
    expect(entry.request.truncated).toBe(true);
    expect(Buffer.byteLength(entry.request.body ?? '')).toBeLessThanOrEqual(16 * 1024);
    expect(JSON.stringify(body).startsWith(entry.request.body ?? 'x')).toBe(true);
    expect(entry.resources).toEqual([{ type: 'manifest', id: sent.json.ManifestID }]);
  });

  it('logs hostile bytes without losing the line: NUL, invalid JSON', async () => {
    const nul = await call('/wf/rate', { token: acme.tokens.test, rawBody: '{"weight":"1\u0000"}' });
    expect(nul.status).toBeGreaterThanOrEqual(400);
    expect(nul.status).toBeLessThan(500);
    const entry = await logged(acme, idOf(nul));
    expect(entry.request.body).toBe('{"weight":"1\\u0000"}');
    const broken = await call('/wf/rate', { token: acme.tokens.test, rawBody: '{"weight": ' });
    expect(broken.status).toBe(400);
    expect((await logged(acme, idOf(broken))).error_code).toBe('invalid_json');
  });

  it('shows a path with a malformed escape as the client sent it, in the 404 and in the log', async () => {
    // The router is given `%00` for a segment that cannot be decoded (lib/http/request-target.ts); nobody sent that.
    const warm = await call('/wf/rate', { token: acme.tokens.test, body: rateSampleExpress() });
    expect(warm.status, warm.text).toBe(200);
    for (const [method, path] of [
      ['POST', '/wf/rate%zz'],
      ['POST', '/wf/%E0%A4%A'],
      ['GET', '/manifests/%'],
    ] as const) {
      const sent = await call(path, {
        method,
        token: acme.tokens.test,
        body: method === 'POST' ? rateSampleExpress() : undefined,
      });
      expect(sent.status, sent.text).toBe(404);
      // No route at all names the path it was asked; a route's id refusal names the id, not a path.
      if (method === 'POST') expect(sent.json.error.message).toContain(`/version-test/api/1.1${path}`);
      expect(sent.text).not.toContain('%00');
      const entry = await logged(acme, idOf(sent));
      expect(entry).toMatchObject({ path, status: 404, error_code: 'not_found' });
    }
  });

  it("answers 404 for another account's request and for the other environment's", async () => {
    const sent = await call('/wf/rate', { token: acme.tokens.test, body: rateSampleExpress() });
    await logged(acme, idOf(sent));
    expectError(await get(globex, `/requests/${idOf(sent)}`), 404, 'not_found');
    expectError(await get(acme, `/requests/${idOf(sent)}`, 'live'), 404, 'not_found');
    expectError(await get(acme, `/requests/req_${'0'.repeat(32)}`), 404, 'not_found');
  });

  it("a client's own x-request-id finds its request, and only in its own account", async () => {
    const mine = `wms:${randomUUID()}`;
    const first = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleExpress(),
      headers: { 'x-request-id': mine },
    });
    expect(idOf(first)).toBe(mine);
    const other = await call('/wf/rate', { token: globex.tokens.test, body: { weight: 'x' }, headers: { 'x-request-id': mine } });
    expect(other.status).toBe(422);
    expect((await logged(acme, mine)).status).toBe(200);
    expect((await logged(globex, mine)).status).toBe(422);
  });

  it("does not log a request without a known token, nor the log's own reads", async () => {
    const anonymous = await call('/wf/rate', { token: null, body: rateSampleExpress() });
    expect(anonymous.status).toBe(401);
    const wrong = await call('/wf/rate', { token: acme.tokens.live, body: rateSampleExpress() });
    expect(wrong.status).toBe(401);
    const read = await get(acme, '/requests?limit=1');
    expect(read.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { rows } = await pgPool().query(`SELECT 1 FROM request_logs WHERE request_id = ANY($1)`, [
      [idOf(anonymous), idOf(wrong), idOf(read)],
    ]);
    expect(rows).toEqual([]);
  });
});

describe('requests refused before their token was checked, and refusals of the rate', () => {
  it('logs a mistyped path (404), a wrong method (405) and an impossible id of a token already known', async () => {
    const account = await newAccount('Typo');
    expect((await call('/wf/rate', { token: account.tokens.test, body: rateSampleExpress() })).status).toBe(200);
    const typo = await call('/wf/rates', { token: account.tokens.test, body: rateSampleExpress() });
    expectError(typo, 404, 'not_found');
    const method = await call('/wf/rate', { method: 'PUT', token: account.tokens.test, body: rateSampleExpress() });
    expectError(method, 405, 'method_not_allowed');
    const badId = await call('/packages/a%20b', { method: 'GET', token: account.tokens.test });
    expectError(badId, 404, 'not_found');
    expect(await logged(account, idOf(typo))).toMatchObject({
      method: 'POST',
      path: '/wf/rates',
      status: 404,
      error_code: 'not_found',
    });
    expect((await logged(account, idOf(typo))).request.body).toBe(JSON.stringify(rateSampleExpress()));
    expect(await logged(account, idOf(method))).toMatchObject({ method: 'PUT', path: '/wf/rate', status: 405 });
    expect(await logged(account, idOf(badId))).toMatchObject({ method: 'GET', path: '/packages/a%20b', status: 404 });
    // The other environment's token on this path is not this account's line to write.
    const crossed = await call('/wf/rates', { token: account.tokens.live, body: {} });
    expect(crossed.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { rows } = await pgPool().query(`SELECT 1 FROM request_logs WHERE request_id = $1`, [idOf(crossed)]);
    expect(rows).toEqual([]);
  });

  it('keeps the size of a body refused unread (413)', async () => {
    const big = await call('/wf/rate', { token: acme.tokens.test, rawBody: `{"weight":"${'9'.repeat(6 * 1024 * 1024)}"}` });
    expect(big.status).toBe(413);
    const entry = await logged(acme, idOf(big));
    expect(entry.request.body).toBeNull();
    expect(entry.request.bytes).toBe(6 * 1024 * 1024 + 13);
  });

  it('answers 429 past the limit (never a 500), and writes one 429 a second, not one a request', async () => {
    // A portal sign-up first: it once made the portal's copy of the rate limiter the one the API used, and every 429 a 500.
    await signUp('Limiter');
    const account = await newAccount('Hammer');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 420 }, () => call('/manifests?limit=1', { method: 'GET', token: account.tokens.test })),
    );
    const seconds = Math.ceil((Date.now() - started) / 1_000) + 1;
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(50);
    // The token is at its limit: wait for the lines in the database, not through GET /requests.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const { rows } = await pgPool().query<{ status: number; n: number }>(
      `SELECT status, count(*)::int AS n FROM request_logs WHERE account_id = $1 GROUP BY status ORDER BY status`,
      [account.accountId],
    );
    expect(rows.find((r) => r.status === 200)?.n).toBe(statuses.filter((s) => s === 200).length);
    const logged429 = rows.find((r) => r.status === 429)?.n ?? 0;
    expect(logged429).toBeGreaterThanOrEqual(1);
    expect(logged429).toBeLessThanOrEqual(seconds);
  });
});

describe('GET /requests', () => {
  let account: TestAccount;
  const ids: string[] = [];

  beforeAll(async () => {
    account = await newAccount('Lister');
    for (let i = 0; i < 6; i += 1)
      ids.push(idOf(await call('/wf/rate', { token: account.tokens.test, body: rateSampleExpress() })));
    ids.push(idOf(await call('/wf/rate', { token: account.tokens.test, body: { weight: '' } })));
    ids.push(idOf(await call(`/manifests?limit=2`, { method: 'GET', token: account.tokens.test })));
    ids.push(idOf(await call('/packages/NOPE-1', { method: 'GET', token: account.tokens.test })));
    await logged(account, ids.at(-1) ?? '');
    for (const id of ids) await logged(account, id);
  });

  it('pages newest first through every line, with no repeats', async () => {
    const seen: Entry[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const result = await get(account, `/requests?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(result.status, result.text).toBe(200);
      seen.push(...(result.json.data as Entry[]));
      if (!result.json.has_more) break;
      cursor = result.json.next_cursor as string;
    }
    expect(seen.map((e) => e.id)).toEqual([...ids].reverse());
    const times = seen.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by status class, method, path, request id, source and day', async () => {
    const list = async (query: string) => {
      const result = await get(account, `/requests?${query}`);
      expect(result.status, result.text).toBe(200);
      return (result.json.data as Entry[]).map((e) => e.id);
    };
    expect(await list('status=error')).toEqual([ids[8], ids[6]]);
    expect(await list('status=4xx')).toEqual([ids[8], ids[6]]);
    expect(await list('status=5xx')).toEqual([]);
    expect((await list('status=2xx')).length).toBe(7);
    expect(await list('method=get')).toEqual([ids[8], ids[7]]);
    expect(await list('path=/manifests')).toEqual([ids[7]]);
    expect((await list('path=/wf/')).length).toBe(7);
    expect(await list('path=/wf/%25')).toEqual([]);
    expect(await list(`request_id=${ids[3]}`)).toEqual([ids[3]]);
    expect(await list('source=portal')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`from=${today}&to=${today}&limit=100`)).length).toBe(9);
    expect(await list('from=2001-01-01&to=2001-01-02')).toEqual([]);
  });

  it('refuses bad parameters with a 422 naming them', async () => {
    for (const [query, path] of [
      ['status=3xx', 'status'],
      ['method=HEAD', 'method'],
      ['path=wf', 'path'],
      [`request_id=${'x'.repeat(129)}`, 'request_id'],
      ['cursor=abc', 'cursor'],
      ['limit=101', 'limit'],
      ['from=0000-01-01', 'from'],
      ['from=2026-02-02&to=2026-02-01', 'to'],
      ['verbose=1', 'verbose'],
      ['path=/a&path=/b', 'path'],
    ] as const) {
      const result = await get(account, `/requests?${query}`);
      expectError(result, 422, 'validation_failed');
      expect(
        (result.json.error.details as { path: string }[]).map((d) => d.path),
        query,
      ).toContain(path);
    }
  });
});

describe('the portal in the log', () => {
  let shipper: Shipper;

  beforeAll(async () => {
    shipper = await signUp('Logger');
  });

  it("writes the portal's changes and errors with the user, not its reads, and reads them with the API's shape", async () => {
    const quote = await portalCall(shipper, 'POST', '/portal-api/rates', { body: rateSampleExpress() });
    expect(quote.status, quote.text).toBe(200);
    const refused = await portalCall(shipper, 'POST', '/portal-api/rates', { body: { weight: 'heavy' } });
    expect(refused.status).toBe(422);
    const read = await portalCall(shipper, 'GET', '/portal-api/webhooks');
    expect(read.status).toBe(200);
    const missing = await portalCall(shipper, 'GET', '/portal-api/packages/NOPE-9');
    expect(missing.status).toBe(404);

    const error = await logged(shipper, refused.headers.get('x-request-id') ?? '');
    expect(error).toMatchObject({
      source: 'portal',
      method: 'POST',
      path: '/rates',
      status: 422,
      error_code: 'validation_failed',
      token: null,
    });
    expect(error.user?.email).toMatch(/^logger-.*@example\.com$/);
    expect((await logged(shipper, quote.headers.get('x-request-id') ?? '')).status).toBe(200);
    expect((await logged(shipper, missing.headers.get('x-request-id') ?? '')).resources).toEqual([]);
    expectError(await get(shipper, `/requests/${read.headers.get('x-request-id')}`), 404, 'not_found');

    const portal = await portalCall(shipper, 'GET', `/portal-api/requests/${refused.headers.get('x-request-id')}`);
    expect(portal.status).toBe(200);
    expect(portal.json).toEqual(error);
    const list = await portalCall(shipper, 'GET', '/portal-api/requests?source=portal&status=error');
    expect((list.json.data as Entry[]).map((e) => e.id)).toEqual([
      missing.headers.get('x-request-id'),
      refused.headers.get('x-request-id'),
    ]);
    // A PUT is filtered as such.
    const put = await portalCall(shipper, 'PUT', '/portal-api/settings/close-out', {
      body: { cutoff_hour: 18, time_zone: 'UTC' },
    });
    expect(put.status, put.text).toBe(200);
    await logged(shipper, put.headers.get('x-request-id') ?? '');
    const puts = await portalCall(shipper, 'GET', '/portal-api/requests?method=PUT');
    expect((puts.json.data as Entry[]).map((e) => e.id)).toEqual([put.headers.get('x-request-id')]);
    // The answers say which were written, so the portal links only those.
    expect(refused.headers.get('x-request-logged')).toBe('1');
    expect(read.headers.get('x-request-logged')).toBeNull();
    const csrf = await portalCall(shipper, 'POST', '/portal-api/rates', { body: rateSampleExpress(), csrf: null });
    expect(csrf.status).toBe(403);
    expect(csrf.headers.get('x-request-logged')).toBeNull();
    // The Logs page's own failed reads are not written.
    const gone = await portalCall(shipper, 'GET', '/portal-api/requests/req_nothere123');
    expect(gone.status).toBe(404);
    expect(gone.headers.get('x-request-logged')).toBeNull();
    // The live log is another log.
    const live = await portalCall(shipper, 'GET', '/portal-api/requests', { env: 'live' });
    expect(live.json.data).toEqual([]);
  });
});

describe('retention', () => {
  it('deletes lines older than 30 days and keeps the rest', async () => {
    const account = await newAccount('Retention');
    const insert = (requestId: string, daysAgo: number) =>
      pgPool().query(
        `INSERT INTO request_logs (request_id, account_id, environment, source, method, path, status, duration_ms, created_at)
         VALUES ($1, $2, 'test', 'api', 'POST', '/wf/rate', 200, 1, now() - make_interval(days => $3))`,
        [requestId, account.accountId, daysAgo],
      );
    await insert('req_old', 31);
    await insert('req_recent', 29);
    await pruneRequestLog();
    const { rows } = await pgPool().query<{ request_id: string }>(`SELECT request_id FROM request_logs WHERE account_id = $1`, [
      account.accountId,
    ]);
    expect(rows.map((r) => r.request_id)).toEqual(['req_recent']);
  });
});

describe('the writer, in this process', () => {
  it('stores every line of a batch exactly (awkward text, the time to the millisecond), and drops only a line the database refuses', async () => {
    const account = await newAccount(`Writer ${suffix}`);
    setRequestLogEnabled(true);
    const atMs = Date.parse('2026-11-20T10:11:12.345Z');
    const base: RequestLogLine = {
      requestId: `req_writer_${suffix}_0`,
      accountId: account.accountId,
      environment: 'test',
      source: 'api',
      method: 'POST',
      path: '/wf/rate',
      query: 'a=%E2%82%AC&b=1',
      status: 200,
      durationMs: 3.6,
      tokenId: null,
      clientAddress: '203.0.113.9',
      userAgent: 'agent\u0000 “quoted” \\ tab\t cr\r lf\n end',
      requestBody: '{"city":"Zürich","note":"say \\"hi\\"\\n","emoji":"📦"}',
      responseBody: `lone ${String.fromCharCode(0xd800)} surrogate`,
      atMs,
    };
    recordRequest(base);
    // NaN is no duration: the database refuses that line alone, and the one after it is written.
    recordRequest({ ...base, requestId: `req_writer_${suffix}_1`, durationMs: Number.NaN });
    recordRequest({ ...base, requestId: `req_writer_${suffix}_2`, atMs: atMs + 1, requestBody: null, responseBody: '' });
    await flushRequestLog();
    const { rows } = await pgPool().query<{
      request_id: string;
      query: string;
      duration_ms: number;
      user_agent: string;
      request_body: string | null;
      request_bytes: number;
      response_body: string | null;
      created_at: Date;
    }>(
      `SELECT request_id, query, duration_ms, user_agent, request_body, request_bytes, response_body, created_at
       FROM request_logs WHERE account_id = $1 ORDER BY request_id`,
      [account.accountId],
    );
    expect(rows.map((r) => r.request_id)).toEqual([`req_writer_${suffix}_0`, `req_writer_${suffix}_2`]);
    const [first, last] = rows;
    expect(first).toMatchObject({
      query: 'a=%E2%82%AC&b=1',
      duration_ms: 4,
      user_agent: 'agent\\u0000 “quoted” \\ tab\t cr\r lf\n end',
      request_body: base.requestBody,
      request_bytes: Buffer.byteLength(base.requestBody!),
      response_body: 'lone \uFFFD surrogate',
    });
    expect(first?.created_at.toISOString()).toBe('2026-11-20T10:11:12.345Z');
    expect(last).toMatchObject({ request_body: null, response_body: null });
    expect(last?.created_at.toISOString()).toBe('2026-11-20T10:11:12.346Z');
  });

  it('writes a batch whose bodies take three and four bytes a character (the COPY buffer grows past its estimate)', async () => {
    const account = await newAccount(`Writer wide ${suffix}`);
    setRequestLogEnabled(true);
    // Estimated by characters, these take up to three times as many bytes: the batch's buffer must grow, twice over.
    const euros = '€'.repeat(6_000);
    const parcels = '📦'.repeat(5_000);
    const line = (n: number, requestBody: string, responseBody: string): RequestLogLine => ({
      requestId: `req_wide_${suffix}_${n}`,
      accountId: account.accountId,
      environment: 'live',
      source: 'api',
      method: 'POST',
      path: '/wf/package',
      query: '',
      status: 422,
      durationMs: 1,
      requestBody,
      responseBody,
      atMs: Date.now(),
    });
    recordRequest(line(0, 'small', '{}'));
    recordRequest(line(1, euros, parcels));
    recordRequest(line(2, parcels, euros));
    recordRequest(line(3, 'after', '{}'));
    await flushRequestLog();
    const { rows } = await pgPool().query<{
      request_id: string;
      request_body: string;
      request_bytes: number;
      response_body: string;
    }>(
      `SELECT request_id, request_body, request_bytes, response_body FROM request_logs WHERE account_id = $1 ORDER BY request_id`,
      [account.accountId],
    );
    expect(rows.map((r) => r.request_id)).toEqual([0, 1, 2, 3].map((n) => `req_wide_${suffix}_${n}`));
    // Cut to 16 KB on a character boundary: 5,461 euros (3 bytes each), 4,096 parcels (4 bytes each).
    expect(rows[1]).toMatchObject({ request_body: '€'.repeat(5_461), request_bytes: 18_000, response_body: '📦'.repeat(4_096) });
    expect(rows[2]).toMatchObject({ request_body: '📦'.repeat(4_096), request_bytes: 20_000, response_body: '€'.repeat(5_461) });
    expect(rows[3]).toMatchObject({ request_body: 'after', response_body: '{}' });
  });
});
