import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { buildKeyring, generateKey, openSecret } from '@/lib/webhooks/secret-box';
import { call, expectError, newAccount, type Env, type TestAccount } from './support/api';
import { WEBHOOK_EVENTS } from '@/lib/schemas/webhooks';

/** The catalog as the refusals name it: package.sorting first, then the lifecycle's events. */
const EVENT_NAMES = WEBHOOK_EVENTS.join(', ');

// The webhook endpoint API on the suite's server: strict SSRF guard, no delivery worker. Endpoints
// here point at a public IP literal (no DNS) and nothing ever sends to them: this server runs no
// worker and the tests that deliver use a database of their own.
const PUBLIC_URL = 'https://93.184.215.14/hooks/carrier';
// The key the suite's server encrypts secrets under (e2e/api/support/global-setup.ts sets it).
const keyring = buildKeyring(process.env.WEBHOOK_SECRETS_KEY!);

let acme: TestAccount;
let globex: TestAccount;
beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
});

async function register(account: TestAccount, env: Env = 'test', body: Record<string, unknown> = {}) {
  const result = await call('/webhooks', {
    env,
    token: account.tokens[env],
    body: { url: PUBLIC_URL, events: ['package.sorting'], ...body },
  });
  expect(result.status, result.text).toBe(201);
  return result.json;
}

describe('POST /webhooks', () => {
  it('registers an endpoint and shows its whsec_ secret this once', async () => {
    const result = await call('/webhooks', {
      token: acme.tokens.test,
      body: { url: PUBLIC_URL, events: ['package.sorting'], description: 'Sorting hub' },
    });
    expect(result.status).toBe(201);
    expect(result.headers.get('content-type')).toContain('application/json');
    expect(result.json).toMatchObject({
      object: 'webhook_endpoint',
      url: PUBLIC_URL,
      description: 'Sorting hub',
      events: ['package.sorting'],
      enabled: true,
      disabled_reason: null,
    });
    expect(result.json.id).toMatch(/^we_[0-9a-z]{24}$/);
    expect(new Date(result.json.created_at).toISOString()).toBe(result.json.created_at);
    const secret: string = result.json.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(() => new Webhook(secret)).not.toThrow();

    const got = await call(`/webhooks/${result.json.id}`, { method: 'GET', token: acme.tokens.test });
    expect(got.status).toBe(200);
    expect(got.json).not.toHaveProperty('secret');
    expect(got.text).not.toContain(secret.slice(6));
    const list = await call('/webhooks', { method: 'GET', token: acme.tokens.test });
    expect(list.json.data.map((e: { id: string }) => e.id)).toContain(result.json.id);
    expect(list.text).not.toContain(secret.slice(6));
  });

  // The secret is stored encrypted, never as the whsec_ text itself.
  it('stores the secret encrypted: the row holds no whsec_ text and opens only with the key', async () => {
    const created = await register(await newAccount('Encrypted'));
    const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT * FROM webhook_endpoints WHERE id = ${created.id}`;
    const dump = JSON.stringify(row);
    expect(dump).not.toContain('whsec_');
    expect(dump).not.toContain(created.secret.slice('whsec_'.length, 30));
    expect(row.secret).toMatch(new RegExp(`^enc:v1:${keyring.current.id}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$`));
    expect(openSecret(keyring, created.id, row.secret as string)).toBe(created.secret);
    expect(() => openSecret(buildKeyring(generateKey()), created.id, row.secret as string)).toThrow(/WEBHOOK_SECRETS_KEY/);
  });

  it('answers under both base paths, each environment seeing only its own endpoints', async () => {
    const shipper = await newAccount('Envs');
    const test = await register(shipper, 'test');
    const live = await register(shipper, 'live');
    const testList = await call('/webhooks', { method: 'GET', env: 'test', token: shipper.tokens.test });
    const liveList = await call('/webhooks', { method: 'GET', env: 'live', token: shipper.tokens.live });
    expect(testList.json.data.map((e: { id: string }) => e.id)).toEqual([test.id]);
    expect(liveList.json.data.map((e: { id: string }) => e.id)).toEqual([live.id]);
    // The other environment's id is simply not there.
    expectError(await call(`/webhooks/${live.id}`, { method: 'GET', env: 'test', token: shipper.tokens.test }), 404, 'not_found');
    expectError(
      await call(`/webhooks/${test.id}`, { method: 'DELETE', env: 'live', token: shipper.tokens.live }),
      404,
      'not_found',
    );
  });

  it('lists every invalid field at once, in the error envelope', async () => {
    const result = await call('/webhooks', {
      token: acme.tokens.test,
      body: {
        url: 'ftp://files.example.com/in',
        events: ['package.sorting', 'package.shipped'],
        description: 'x'.repeat(256),
        secret: 'mine',
      },
    });
    const error = expectError(result, 422, 'validation_failed');
    expect(error.details).toEqual([
      { path: 'url', message: 'must use https (or http)' },
      { path: 'events[1]', message: `must be one of: ${EVENT_NAMES}` },
      { path: 'description', message: 'must be at most 255 characters' },
      { path: 'secret', message: 'is not a known field' },
    ]);
    expect(result.json.error.request_id).toBe(result.headers.get('x-request-id'));
  });

  it.each([
    [
      {},
      [
        { path: 'url', message: 'is required' },
        { path: 'events', message: 'is required' },
      ],
    ],
    [
      { url: 42, events: 'package.sorting' },
      [
        { path: 'url', message: 'must be a string' },
        { path: 'events', message: `must be an array of event names: ${EVENT_NAMES}` },
      ],
    ],
    [
      { url: '/relative', events: [] },
      [
        { path: 'url', message: 'must be an absolute URL, e.g. https://example.com/webhooks' },
        { path: 'events', message: 'must name at least one event' },
      ],
    ],
    [
      { url: 'https://user:pw@93.184.215.14/', events: ['package.sorting'] },
      [{ path: 'url', message: 'must not contain a user name or password' }],
    ],
    [
      { url: 'https://93.184.215.14/#frag', events: ['package.sorting'] },
      [{ path: 'url', message: 'must not contain a #fragment' }],
    ],
    [
      { url: `https://93.184.215.14/${'a'.repeat(2_048)}`, events: ['package.sorting'] },
      [{ path: 'url', message: 'must be at most 2048 characters' }],
    ],
    [{ url: PUBLIC_URL, events: [7] }, [{ path: 'events[0]', message: `must be one of: ${EVENT_NAMES}` }]],
  ])('refuses %j', async (body, details) => {
    const error = expectError(await call('/webhooks', { token: acme.tokens.test, body }), 422, 'validation_failed');
    expect(error.details).toEqual(details);
  });

  it('refuses a body that is not JSON with 400', async () => {
    expectError(await call('/webhooks', { token: acme.tokens.test, rawBody: '{"url":' }), 400, 'invalid_json');
  });

  describe.each(['test', 'live'] as const)('SSRF guard at registration (%s)', (env) => {
    it.each([
      ['http://127.0.0.1:8080/hook', 'loopback'],
      ['http://10.0.0.1/hook', 'private'],
      ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
      ['http://[::1]/hook', 'loopback'],
      ['http://localhost:3000/hook', 'localhost resolves to'],
      ['https://192.168.0.10/hook', 'private'],
      ['https://100.64.1.1/hook', 'carrier-grade NAT'],
      ['https://[fd00::1]/hook', 'unique-local'],
      ['https://[fe80::1]/hook', 'link-local'],
      // Reserved and private ranges are refused, not only a denylist's.
      ['http://192.0.2.2:3000/', '192.0.2.2 is a reserved'],
      ['https://198.51.100.7/hook', '198.51.100.7 is a reserved'],
      ['https://203.0.113.9/hook', '203.0.113.9 is a reserved'],
      ['https://192.88.99.1/hook', '192.88.99.1 is a reserved'],
      ['https://198.18.0.1/hook', '198.18.0.1 is a reserved'],
      ['https://[2001:db8::1]/hook', '2001:db8::1 is a reserved'],
      ['https://[::ffff:192.0.2.2]/hook', 'is a reserved'],
      ['https://[64:ff9b::c000:202]/hook', 'is a reserved'],
      ['https://[2002:c000:202::1]/hook', 'is a 6to4 address'],
      ['https://224.0.0.1/hook', 'is a multicast address'],
      ['https://240.0.0.1/hook', 'is a reserved'],
      ['http://93.184.215.14:22/hook', 'port 22 is not allowed; use 80, 443 or a port from 1024 to 65535'],
      ['http://93.184.215.14:0/hook', 'port 0 is not allowed'],
      ['http://93.184.215.14:5433/hook', 'port 5433 (PostgreSQL) is not allowed'],
      ['https://93.184.215.14:6379/hook', 'port 6379 (Redis) is not allowed'],
    ])('refuses %s before any connection', async (url, reason) => {
      const shipper = acme;
      const result = await call('/webhooks', { env, token: shipper.tokens[env], body: { url, events: ['package.sorting'] } });
      const error = expectError(result, 422, 'validation_failed');
      expect(error.details).toHaveLength(1);
      expect(error.details![0].path).toBe('url');
      expect(error.details![0].message).toContain(reason);
    });
  });

  it('caps endpoints per account and environment at 16', async () => {
    const shipper = await newAccount('Many');
    for (let i = 0; i < 16; i += 1) await register(shipper);
    const error = expectError(
      await call('/webhooks', { token: shipper.tokens.test, body: { url: PUBLIC_URL, events: ['package.sorting'] } }),
      409,
      'conflict',
    );
    expect(error.message).toContain('16');
    await register(shipper, 'live'); // the other environment has its own count
  });

  it('holds the cap when 24 creations race: exactly 16 made, the rest 409', async () => {
    const shipper = await newAccount('Racing');
    const results = await Promise.all(
      Array.from({ length: 24 }, () =>
        call('/webhooks', { token: shipper.tokens.test, body: { url: PUBLIC_URL, events: ['package.sorting'] } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(16);
    for (const refused of results.filter((r) => r.status !== 201)) expectError(refused, 409, 'conflict');
    const listed = await call('/webhooks', { method: 'GET', token: shipper.tokens.test });
    expect(listed.json.data).toHaveLength(16);
  });
});

describe('authentication and methods', () => {
  it('needs a token (401) of the right environment (401 wrong_environment)', async () => {
    const none = await call('/webhooks', { method: 'GET', token: null });
    expectError(none, 401, 'unauthorized');
    expect(none.headers.get('www-authenticate')).toBe('Token');
    expectError(await call('/webhooks', { method: 'GET', env: 'live', token: acme.tokens.test }), 401, 'wrong_environment');
    expectError(await call('/webhooks', { method: 'GET', env: 'test', token: acme.tokens.live }), 401, 'wrong_environment');
  });

  it('answers 405 with Allow for a method the path does not take', async () => {
    const result = await call('/webhooks', { method: 'PUT', token: acme.tokens.test, body: {} });
    expectError(result, 405, 'method_not_allowed');
    expect(result.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const rotate = await call('/webhooks/we_x/rotate-secret', { method: 'GET', token: acme.tokens.test });
    expect(rotate.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe("another account's endpoint is a plain 404, exactly like one that does not exist", () => {
  const cases: [string, string, string, unknown?][] = [
    ['GET', '', 'GET'],
    ['PATCH', '', 'PATCH', { enabled: false }],
    ['DELETE', '', 'DELETE'],
    ['POST', '/rotate-secret', 'POST'],
    ['POST', '/test', 'POST'],
    ['GET', '/deliveries', 'GET'],
    ['POST', '/deliveries/msg_abc/redeliver', 'POST'],
  ];
  it.each(cases)('%s /webhooks/{id}%s', async (_m, suffix, method, body) => {
    const theirs = await register(globex);
    const mine = await call(`/webhooks/${theirs.id}${suffix}`, { method, token: acme.tokens.test, body });
    const missing = await call(`/webhooks/we_doesnotexist000000000000${suffix}`, { method, token: acme.tokens.test, body });
    expectError(mine, 404, 'not_found');
    expectError(missing, 404, 'not_found');
    expect(mine.json.error.message.replace(theirs.id, 'ID')).toBe(
      missing.json.error.message.replace('we_doesnotexist000000000000', 'ID'),
    );
    const still = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(still.enabled).toBe(true);
    expect(openSecret(keyring, theirs.id, still.secret)).toBe(theirs.secret);
    expect(still.previousSecret).toBeNull();
  });
});

describe('PATCH /webhooks/{id}', () => {
  it('changes url, events, description and enabled; enabling clears the disabled reason', async () => {
    const endpoint = await register(acme);
    const off = await call(`/webhooks/${endpoint.id}`, {
      method: 'PATCH',
      token: acme.tokens.test,
      body: { enabled: false, description: 'paused' },
    });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ enabled: false, description: 'paused', disabled_reason: null });
    expect(off.json).not.toHaveProperty('secret');
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { disabledReason: 'The endpoint answered 410 Gone.' } });
    const on = await call(`/webhooks/${endpoint.id}`, {
      method: 'PATCH',
      token: acme.tokens.test,
      body: { enabled: true, url: 'https://93.184.215.15/v2', events: ['package.sorting', 'package.sorting'] },
    });
    expect(on.json).toMatchObject({
      enabled: true,
      disabled_reason: null,
      url: 'https://93.184.215.15/v2',
      events: ['package.sorting'],
    });
  });

  it('refuses an empty change, unknown fields, bad values and private destinations', async () => {
    const endpoint = await register(acme);
    const path = `/webhooks/${endpoint.id}`;
    const empty = expectError(await call(path, { method: 'PATCH', token: acme.tokens.test, body: {} }), 422, 'validation_failed');
    expect(empty.details).toEqual([{ path: '(body)', message: 'send at least one of: url, events, description, enabled' }]);
    const bad = expectError(
      await call(path, {
        method: 'PATCH',
        token: acme.tokens.test,
        body: { enabled: 'yes', events: [], url: 'mailto:x@y.z', secret: 'x' },
      }),
      422,
      'validation_failed',
    );
    expect(bad.details!.map((d) => d.path)).toEqual(['url', 'events', 'enabled', 'secret']);
    const ssrf = expectError(
      await call(path, { method: 'PATCH', token: acme.tokens.test, body: { url: 'http://169.254.169.254/' } }),
      422,
      'validation_failed',
    );
    expect(ssrf.details![0]).toMatchObject({ path: 'url' });
    const reserved = expectError(
      await call(path, { method: 'PATCH', token: acme.tokens.test, body: { url: 'https://[2001:db8::7]:8443/' } }),
      422,
      'validation_failed',
    );
    expect(reserved.details).toEqual([
      {
        path: 'url',
        message:
          '2001:db8::7 is a reserved (documentation, benchmarking or future use) address; webhooks may only reach public addresses',
      },
    ]);
    const port = expectError(
      await call(path, { method: 'PATCH', token: acme.tokens.test, body: { url: 'https://93.184.215.14:6379/' } }),
      422,
      'validation_failed',
    );
    expect(port.details).toEqual([
      { path: 'url', message: 'port 6379 (Redis) is not allowed; use 80, 443 or another port from 1024 to 65535' },
    ]);
    const unchanged = await call(path, { method: 'GET', token: acme.tokens.test });
    expect(unchanged.json.url).toBe(PUBLIC_URL);
  });
});

describe('DELETE /webhooks/{id}', () => {
  it('deletes with 204; then it is gone', async () => {
    const endpoint = await register(acme);
    const result = await call(`/webhooks/${endpoint.id}`, { method: 'DELETE', token: acme.tokens.test });
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
    expectError(await call(`/webhooks/${endpoint.id}`, { method: 'GET', token: acme.tokens.test }), 404, 'not_found');
    expectError(await call(`/webhooks/${endpoint.id}`, { method: 'DELETE', token: acme.tokens.test }), 404, 'not_found');
  });
});

describe('POST /webhooks/{id}/rotate-secret', () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await newAccount('Rotate');
  });

  async function stored(id: string) {
    return db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
  }

  it('replaces the secret, shows the new one once, and keeps the old one signing for 24 hours by default', async () => {
    const endpoint = await register(owner);
    const before = Date.now();
    const rotated = await call(`/webhooks/${endpoint.id}/rotate-secret`, { token: owner.tokens.test });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(endpoint.secret);
    const expires = Date.parse(rotated.json.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000 + 5_000);
    const row = await stored(endpoint.id);
    expect(openSecret(keyring, endpoint.id, row.secret)).toBe(rotated.json.secret);
    expect(openSecret(keyring, endpoint.id, row.previousSecret!)).toBe(endpoint.secret);
    expect(row.previousSecretExpiresAt!.toISOString()).toBe(rotated.json.previous_secret_expires_at);
    expect(JSON.stringify(row)).not.toContain('whsec_');
    // Nothing else shows either secret again.
    const got = await call(`/webhooks/${endpoint.id}`, { method: 'GET', token: owner.tokens.test });
    expect(got.text).not.toContain('whsec_');
    expect(got.json).not.toHaveProperty('previous_secret_expires_at');
  });

  it('takes the overlap from grace_period_seconds; 0 ends the old secret at once', async () => {
    const endpoint = await register(owner);
    const short = await call(`/webhooks/${endpoint.id}/rotate-secret`, {
      token: owner.tokens.test,
      body: { grace_period_seconds: 60 },
    });
    expect(short.status).toBe(200);
    const row = await stored(endpoint.id);
    const seconds = (row.previousSecretExpiresAt!.getTime() - row.updatedAt.getTime()) / 1_000;
    expect(Math.round(seconds)).toBe(60);

    const now = await call(`/webhooks/${endpoint.id}/rotate-secret`, {
      token: owner.tokens.test,
      body: { grace_period_seconds: '0' },
    });
    expect(now.status).toBe(200);
    expect(now.json.previous_secret_expires_at).toBeNull();
    const after = await stored(endpoint.id);
    expect(after.previousSecret).toBeNull();
    expect(after.previousSecretExpiresAt).toBeNull();
    expect(openSecret(keyring, endpoint.id, after.secret)).toBe(now.json.secret);

    const max = await call(`/webhooks/${endpoint.id}/rotate-secret`, {
      token: owner.tokens.test,
      body: { grace_period_seconds: 604_800 },
    });
    expect(max.status).toBe(200);
    // The old secret kept is the one just replaced, not an older one.
    expect(openSecret(keyring, endpoint.id, (await stored(endpoint.id)).previousSecret!)).toBe(now.json.secret);
  });

  it.each([
    [{ grace_period_seconds: -1 }, 'grace_period_seconds', 'must be a whole number'],
    [{ grace_period_seconds: 604_801 }, 'grace_period_seconds', 'must be between 0 and 604800'],
    [{ grace_period_seconds: 1.5 }, 'grace_period_seconds', 'must be a whole number'],
    [{ grace_period_seconds: 'soon' }, 'grace_period_seconds', 'must be a whole number'],
    [{ grace: 60 }, 'grace', 'is not a known field'],
  ])('refuses %j with 422 and leaves the secret as it was', async (body, path, message) => {
    const endpoint = await register(owner);
    const before = await stored(endpoint.id);
    const error = expectError(
      await call(`/webhooks/${endpoint.id}/rotate-secret`, { token: owner.tokens.test, body }),
      422,
      'validation_failed',
    );
    expect(error.details).toEqual([{ path, message }]);
    expect((await stored(endpoint.id)).secret).toBe(before.secret);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const endpoint = await register(owner);
    expectError(
      await call(`/webhooks/${endpoint.id}/rotate-secret`, { token: owner.tokens.test, rawBody: '{"grace' }),
      400,
      'invalid_json',
    );
  });
});

describe('POST /webhooks/{id}/test', () => {
  it('queues one test event for this endpoint alone, marked as a test', async () => {
    const shipper = await newAccount('Tester');
    const endpoint = await register(shipper);
    const other = await register(shipper);
    const result = await call(`/webhooks/${endpoint.id}/test`, { token: shipper.tokens.test });
    expect(result.status).toBe(202);
    expect(result.json).toMatchObject({ object: 'webhook_test', status: 'pending' });
    const message = await db.webhookMessage.findUniqueOrThrow({
      where: { id: result.json.message_id },
      include: { event: true },
    });
    expect(message.endpointId).toBe(endpoint.id);
    expect(message.event.isTest).toBe(true);
    expect(message.event.payload).toEqual({
      manifest_id: 'MAN-TEST00000000000000',
      package_count: 1,
      tracking_numbers: ['TEST0000000001'],
    });
    expect(await db.webhookMessage.count({ where: { endpointId: other.id } })).toBe(0);
  });

  it('refuses a disabled endpoint with 409', async () => {
    const endpoint = await register(acme, 'test');
    await call(`/webhooks/${endpoint.id}`, { method: 'PATCH', token: acme.tokens.test, body: { enabled: false } });
    expectError(await call(`/webhooks/${endpoint.id}/test`, { token: acme.tokens.test }), 409, 'conflict');
  });
});

/** A message with `attempts` logged attempts, written directly (this server delivers nothing). */
async function seedMessage(endpointId: string, accountId: string, attempts: number, status = 'failed') {
  const event = await db.webhookEvent.create({
    data: {
      id: newId('evt'),
      accountId,
      environment: 'test',
      eventType: 'package.sorting',
      payload: { manifest_id: 'MAN-X', package_count: 1, tracking_numbers: ['T1'] },
    },
  });
  const message = await db.webhookMessage.create({
    data: {
      id: newId('msg'),
      eventId: event.id,
      endpointId,
      status,
      attemptCount: attempts,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    },
  });
  for (let n = 1; n <= attempts; n += 1) {
    await db.webhookAttempt.create({
      data: {
        messageId: message.id,
        endpointId,
        attemptNumber: n,
        statusCode: 500,
        durationMs: 12,
        responseBody: `oops ${n}`,
        error: 'HTTP 500',
        success: false,
      },
    });
  }
  return message;
}

describe('GET /webhooks/{id}/deliveries', () => {
  it('pages through the attempt log, newest first, with a cursor', async () => {
    const shipper = await newAccount('Log');
    const endpoint = await register(shipper);
    const empty = await call(`/webhooks/${endpoint.id}/deliveries`, { method: 'GET', token: shipper.tokens.test });
    expect(empty.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    const message = await seedMessage(endpoint.id, shipper.accountId, 5);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await call(`/webhooks/${endpoint.id}/deliveries${query}`, { method: 'GET', token: shipper.tokens.test });
      expect(page.status).toBe(200);
      expect(page.json.data.length).toBeLessThanOrEqual(2);
      for (const item of page.json.data) seen.push(item.attempt);
      cursor = page.json.next_cursor;
      expect(page.json.has_more).toBe(cursor !== null);
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    expect(pages).toBe(3);

    const first = await call(`/webhooks/${endpoint.id}/deliveries?limit=1`, { method: 'GET', token: shipper.tokens.test });
    expect(first.json.data[0]).toMatchObject({
      object: 'webhook_delivery',
      message_id: message.id,
      event_type: 'package.sorting',
      test: false,
      attempt: 5,
      success: false,
      status_code: 500,
      duration_ms: 12,
      response_body: 'oops 5',
      error: 'HTTP 500',
      message_status: 'failed',
      // Written before request headers were recorded: nothing to show, and no retry due for a failed message.
      request: null,
      next_attempt_at: null,
    });
    expect(first.json.data[0].id).toMatch(/^att_\d+$/);
    // A message waiting for its retry says when it is due.
    const waiting = await seedMessage(endpoint.id, shipper.accountId, 1, 'pending');
    const latest = await call(`/webhooks/${endpoint.id}/deliveries?limit=1`, { method: 'GET', token: shipper.tokens.test });
    expect(latest.json.data[0]).toMatchObject({
      message_id: waiting.id,
      message_status: 'pending',
      next_attempt_at: waiting.nextAttemptAt.toISOString(),
    });
  });

  it.each([
    ['limit=0', 'limit', 'must be between 1 and 100'],
    ['limit=101', 'limit', 'must be between 1 and 100'],
    ['limit=abc', 'limit', 'must be a whole number'],
    ['cursor=msg_1', 'cursor', 'must be a next_cursor value from a previous page'],
    ['outcome=maybe', 'outcome', 'must be one of: succeeded, failed'],
    ['outcome=%00', 'outcome', 'must not contain control characters (found NUL at position 0)'],
    ['outcome=failed&outcome=succeeded', 'outcome', 'is given more than once'],
    ['limit=1&limit=2', 'limit', 'is given more than once'],
  ])('refuses ?%s', async (query, path, message) => {
    const endpoint = await register(acme);
    const error = expectError(
      await call(`/webhooks/${endpoint.id}/deliveries?${query}`, { method: 'GET', token: acme.tokens.test }),
      422,
      'validation_failed',
    );
    expect(error.details).toEqual([{ path, message }]);
  });
});

describe('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('queues a finished message again for one more attempt, by attempt id or by message id', async () => {
    const shipper = await newAccount('Redeliver');
    const endpoint = await register(shipper);
    const message = await seedMessage(endpoint.id, shipper.accountId, 2);
    const log = await call(`/webhooks/${endpoint.id}/deliveries`, { method: 'GET', token: shipper.tokens.test });
    const result = await call(`/webhooks/${endpoint.id}/deliveries/${log.json.data[0].id}/redeliver`, {
      token: shipper.tokens.test,
    });
    expect(result.status).toBe(202);
    expect(result.json).toEqual({ object: 'webhook_redelivery', message_id: message.id, status: 'pending' });
    const queued = await db.webhookMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect(queued).toMatchObject({ status: 'pending', redelivery: true, attemptCount: 2 });
    expect(queued.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);

    const byMessage = await call(`/webhooks/${endpoint.id}/deliveries/${message.id}/redeliver`, { token: shipper.tokens.test });
    expect(byMessage.status).toBe(202);
  });

  it("refuses a message being delivered (409), another endpoint's delivery (404) and a disabled endpoint (409)", async () => {
    const shipper = await newAccount('Redeliver2');
    const endpoint = await register(shipper);
    const other = await register(shipper);
    const busy = await seedMessage(endpoint.id, shipper.accountId, 1, 'delivering');
    expectError(
      await call(`/webhooks/${endpoint.id}/deliveries/${busy.id}/redeliver`, { token: shipper.tokens.test }),
      409,
      'conflict',
    );
    expectError(
      await call(`/webhooks/${other.id}/deliveries/${busy.id}/redeliver`, { token: shipper.tokens.test }),
      404,
      'not_found',
    );
    expectError(
      await call(`/webhooks/${endpoint.id}/deliveries/att_999999999999/redeliver`, { token: shipper.tokens.test }),
      404,
      'not_found',
    );
    expectError(
      await call(`/webhooks/${endpoint.id}/deliveries/bogus/redeliver`, { token: shipper.tokens.test }),
      404,
      'not_found',
    );
    const done = await seedMessage(endpoint.id, shipper.accountId, 1, 'failed');
    await call(`/webhooks/${endpoint.id}`, { method: 'PATCH', token: shipper.tokens.test, body: { enabled: false } });
    expectError(
      await call(`/webhooks/${endpoint.id}/deliveries/${done.id}/redeliver`, { token: shipper.tokens.test }),
      409,
      'conflict',
    );
  });
});
