import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, call, newAccount, pathFor, type Env, type TestAccount } from './support/api';
import { address, portalCall, signUp, type Shipper } from './support/portal';
import { rateSampleExpress } from './support/samples';
import { startApp, testServerEnv, type AppProcess } from './support/spawn';

// The request log's routes as an attacker sends them: hostile bytes in every query parameter and in the
// path, impossible dates, forged cursors, another account's and the other environment's ids, the portal's routes
// the same way, and two instances writing one log. Every answer is a 4xx envelope or works; never a 5xx.

let acme: TestAccount;
let globex: TestAccount;
let shipper: Shipper;
let acmeRequestId = '';

const HOSTILE_VALUES = [
  '%00', // NUL
  'a%00b',
  '%ED%A0%80', // a lone surrogate, as UTF-8 would have it (invalid UTF-8)
  '%E0%A4%A', // a malformed escape
  '%', // a bare percent
  '%C0%AF', // an overlong slash
  encodeURIComponent('\u202Ereq_x'), // right-to-left override
  'x'.repeat(10_000),
  encodeURIComponent('<script>alert(1)</script>'),
  encodeURIComponent("' OR 1=1 --"),
];

const PARAMETERS = ['limit', 'cursor', 'status', 'method', 'path', 'request_id', 'source', 'from', 'to'];

/** A raw GET (no URL normalisation of ours) with the account's token. */
async function rawGet(account: TestAccount, target: string, env: Env = 'test', base = baseUrl) {
  const response = await fetch(base + pathFor(env, target), {
    headers: { authorization: `Token ${account.tokens[env]}`, 'x-forwarded-for': address() },
  });
  const text = await response.text();
  let json: { error?: { code?: string; details?: { path: string }[] } } | undefined;
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

function expectRefusedOrServed(answer: { status: number; text: string; json?: { error?: { code?: string } } }, what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) expect(answer.json?.error?.code, `${what}: an error envelope`).toEqual(expect.any(String));
}

beforeAll(async () => {
  [acme, globex, shipper] = await Promise.all([newAccount('Acme'), newAccount('Globex'), signUp('Attacker')]);
  const sent = await call('/wf/rate', { token: acme.tokens.test, body: rateSampleExpress() });
  acmeRequestId = sent.headers.get('x-request-id') ?? '';
  // Written within a second.
  for (let i = 0; i < 40; i++) {
    if ((await call(`/requests/${acmeRequestId}`, { method: 'GET', token: acme.tokens.test })).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
});

describe('GET /requests with hostile parameters', () => {
  it('answers every hostile value of every parameter with a 4xx envelope or a page, never a 5xx', async () => {
    for (const name of PARAMETERS) {
      for (const value of HOSTILE_VALUES) {
        const answer = await rawGet(acme, `/requests?${name}=${value}`);
        expectRefusedOrServed(answer, `${name}=${value.slice(0, 20)}`);
      }
    }
  });

  it('refuses impossible and out-of-range days, naming the parameter', async () => {
    for (const day of [
      '2026-02-30',
      '2026-13-01',
      '0000-01-01',
      '9999-12-31',
      '2026-1-1',
      '2026-01-01T00:00:00Z',
      '1999-12-31',
    ]) {
      for (const name of ['from', 'to']) {
        const answer = await rawGet(acme, `/requests?${name}=${encodeURIComponent(day)}`);
        expect(answer.status, `${name}=${day}`).toBe(422);
        expect(answer.json?.error?.details?.map((d) => d.path)).toContain(name);
      }
    }
  });

  it('refuses forged cursors', async () => {
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      forge(['2026-11-24T00:00:00.000Z', 0, "1' OR 1=1"]),
      forge(['2026-11-24T00:00:00.000Z', 0, '99999999999999999999']),
      forge(['0000-01-01T00:00:00.000Z', 0, '1']),
      forge(['2026-11-24T00:00:00.000Z', 0, '-1']),
      forge({ t: 1 }),
      'A'.repeat(201),
    ]) {
      const answer = await rawGet(acme, `/requests?cursor=${cursor}`);
      expect(answer.status, cursor).toBe(422);
      expect(answer.json?.error?.details?.map((d) => d.path)).toContain('cursor');
    }
  });

  it('answers 404 for a hostile id in the path, before any query', async () => {
    for (const id of [
      '%00',
      'req%00x',
      '%E0%A4%A',
      '%ED%A0%80',
      'x'.repeat(129),
      '..%2F..%2Fetc',
      '%2e%2e',
      encodeURIComponent('req_\u202E'),
    ]) {
      const answer = await rawGet(acme, `/requests/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.json?.error?.code).toBe('not_found');
    }
  });

  it("never shows another account's request, nor this account's through the other environment", async () => {
    expect((await rawGet(acme, `/requests/${acmeRequestId}`)).status).toBe(200);
    expect((await rawGet(globex, `/requests/${acmeRequestId}`)).status).toBe(404);
    expect((await rawGet(acme, `/requests/${acmeRequestId}`, 'live')).status).toBe(404);
    const list = await rawGet(globex, `/requests?request_id=${acmeRequestId}`);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(acmeRequestId);
    // Acme's own cursor, replayed by Globex, pages Globex's log only.
    const page = await call('/requests?limit=1', { method: 'GET', token: acme.tokens.test });
    const cursor = page.json.next_cursor as string | null;
    if (cursor) {
      const replayed = await rawGet(globex, `/requests?cursor=${cursor}`);
      expect(replayed.status).toBe(200);
      expect(replayed.text).not.toContain(acmeRequestId);
    }
  });
});

describe('the portal Logs routes with hostile input', () => {
  it('answers hostile parameters and ids with a 4xx envelope or a page, never a 5xx', async () => {
    for (const name of PARAMETERS) {
      for (const value of HOSTILE_VALUES.slice(0, 6)) {
        const answer = await portalCall(shipper, 'GET', `/portal-api/requests?${name}=${value}`);
        expectRefusedOrServed(answer, `portal ${name}=${value}`);
      }
    }
    for (const id of ['%00', '%E0%A4%A', '%ED%A0%80', 'x'.repeat(129)]) {
      const answer = await portalCall(shipper, 'GET', `/portal-api/requests/${id}`);
      expect(answer.status, id).toBeGreaterThanOrEqual(400);
      expect(answer.status, id).toBeLessThan(500);
    }
  });

  it("refuses without a session or an environment, and never shows another account's request", async () => {
    expect((await portalCall(null, 'GET', '/portal-api/requests')).status).toBe(401);
    expect((await portalCall(shipper, 'GET', '/portal-api/requests', { env: null })).status).toBe(400);
    expect((await portalCall(shipper, 'GET', `/portal-api/requests/${acmeRequestId}`)).status).toBe(404);
    // A stale tab naming the other environment reads that environment's log, which holds nothing of test's.
    const live = await portalCall(shipper, 'GET', '/portal-api/requests', { env: 'live' });
    expect(live.status).toBe(200);
    expect(live.json.data).toEqual([]);
  });

  it('keeps NUL and lone surrogates sent in a logged portal body without failing the write', async () => {
    const sent = await portalCall(shipper, 'POST', '/portal-api/webhooks', {
      rawBody: '{"url":"https://93.184.215.14/a\\u0000","events":["package.sorting"],"description":"x\\ud800y"}',
    });
    expect(sent.status).toBeGreaterThanOrEqual(400);
    expect(sent.status).toBeLessThan(500);
    const id = sent.headers.get('x-request-id') ?? '';
    let line: { status: number; json: { request?: { body?: string } } } | undefined;
    for (let i = 0; i < 40; i++) {
      line = await portalCall(shipper, 'GET', `/portal-api/requests/${id}`);
      if (line.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(line?.status).toBe(200);
    expect(line?.json.request?.body).toContain('description');
  });
});

describe('two instances writing one log', () => {
  let second: AppProcess | undefined;
  beforeAll(async () => {
    second = await startApp({
      name: 'second instance',
      env: testServerEnv(inject('databaseUrl'), process.env.TEST_SERVER ?? 'server'),
    });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
  });

  it('a request served by one instance is read through the other, and both write at once', async () => {
    const account = await newAccount('Twins');
    const send = (base: string) =>
      fetch(base + pathFor('test', '/wf/rate'), {
        method: 'POST',
        headers: { authorization: `Token ${account.tokens.test}`, 'content-type': 'application/json' },
        body: JSON.stringify(rateSampleExpress()),
      }).then((r) => r.headers.get('x-request-id') ?? '');
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i % 2 === 0 ? baseUrl : second!.baseUrl)));
    const deadline = Date.now() + 10_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      const page = await rawGet(account, '/requests?limit=100', 'test', second!.baseUrl);
      expect(page.status).toBe(200);
      seen = (JSON.parse(page.text) as { data: { id: string }[] }).data.map((r) => r.id);
      if (seen.length >= ids.length) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect([...seen].sort()).toEqual([...ids].sort());
    expect((await rawGet(account, `/requests/${ids[0]}`, 'test', second!.baseUrl)).status).toBe(200);
    expect((await rawGet(account, `/requests/${ids[1]}`, 'test', baseUrl)).status).toBe(200);
    expect(second!.unexpected, 'errors the second instance did not expect').toEqual([]);
  });
});
