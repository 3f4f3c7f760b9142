import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { API_SCOPES, CARRIER_OPERATIONS, type ApiScope } from '@/lib/auth/scopes';
import { generateToken, hashToken } from '@/lib/auth/tokens';
import { db, pgPool } from '@/lib/db';
import { execute, sql } from '@/lib/sql';
import { apiRoutes } from '@/lib/http/routes';
import { call, expectError, newAccount, tracking, type Env, type TestAccount } from './support/api';
import { portalCall, signUp, type Shipper } from './support/portal';
import { containerSample, rateSampleAll } from './support/samples';

// Scoped API tokens (lib/auth/scopes.ts): every route of the route table, in the test environment (and the
// live one where the route exists there), against a token that has every scope but the one it needs (403
// insufficient_scope naming it: no other scope stands in for it) and a token that has only that scope (let through:
// whatever the operation answers, it is not a refusal of the caller). Tokens from before scopes keep full access.

const run = promisify(execFile);

let owner: TestAccount;
let stranger: TestAccount;
/** Per environment: a token with every scope but the key, and a token with the key alone. */
const allBut: Record<Env, Record<ApiScope, string>> = {
  test: {} as Record<ApiScope, string>,
  live: {} as Record<ApiScope, string>,
};
const only: Record<Env, Record<ApiScope, string>> = {
  test: {} as Record<ApiScope, string>,
  live: {} as Record<ApiScope, string>,
};
/** A token of the owner written as before scopes: no scope columns given, the migration's defaults. */
const legacy: Record<Env, string> = { test: '', live: '' };
const endpointIds: Record<Env, string> = { test: '', live: '' };
const manifestIds: Record<Env, string> = { test: '', live: '' };
const trackingNumbers: Record<Env, string> = { test: '', live: '' };
const requestIds: Record<Env, string> = { test: '', live: '' };

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newAccount('Scoped'), newAccount('ScopedStranger')]);
  for (const env of ['test', 'live'] as const) {
    for (const scope of API_SCOPES) {
      const [without, alone] = await Promise.all([
        createApiToken({
          accountId: owner.accountId,
          environment: env,
          name: `all but ${scope}`,
          scopes: API_SCOPES.filter((s) => s !== scope),
        }),
        createApiToken({ accountId: owner.accountId, environment: env, name: `only ${scope}`, scopes: [scope] }),
      ]);
      allBut[env][scope] = without.token;
      only[env][scope] = alone.token;
    }
    // The statement the code before scopes ran: the new columns take their defaults, as the migration gave existing rows.
    const old = generateToken(env);
    await execute(
      pgPool(),
      sql`INSERT INTO api_tokens (id, account_id, environment, name, display_prefix, token_hash)
      VALUES (gen_random_uuid(), ${owner.accountId}::uuid, ${env}::"Environment", 'from before scopes', ${old.displayPrefix}, ${old.hash})`,
    );
    expect(
      await db.apiToken.findUniqueOrThrow({
        where: { tokenHash: old.hash },
        select: { fullAccess: true, scopes: true, createdByUserId: true },
      }),
    ).toEqual({
      fullAccess: true,
      scopes: [],
      createdByUserId: null,
    });
    legacy[env] = old.token;

    const endpoint = await call('/webhooks', {
      env,
      token: owner.tokens[env],
      body: { url: 'https://93.184.215.14/scoped', events: ['package.sorting'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    endpointIds[env] = endpoint.json.id;
    trackingNumbers[env] = tracking('SCP');
    const manifest = await call('/wf/manifest', {
      env,
      token: owner.tokens[env],
      body: containerSample(`ULD-${trackingNumbers[env]}`, [trackingNumbers[env]]),
    });
    expect(manifest.status, manifest.text).toBe(200);
    manifestIds[env] = manifest.json.ManifestID;
    requestIds[env] = manifest.headers.get('x-request-id') ?? '';
  }
});

const cases = apiRoutes().flatMap((route) =>
  Object.keys(route.methods).flatMap((method) =>
    (['test', 'live'] as const)
      .filter((env) => !(route.testOnly && env === 'live'))
      .map((env) => ({ pattern: route.pattern, method, env, scope: route.methods[method as keyof typeof route.methods]?.scope })),
  ),
);

function pathOf(pattern: string, env: Env): string {
  const id = pattern.startsWith('/manifests/')
    ? manifestIds[env]
    : pattern.startsWith('/requests/')
      ? requestIds[env]
      : endpointIds[env];
  return pattern.replace(':id', id).replace(':TrackingNumber', trackingNumbers[env]).replace(':deliveryId', 'msg_doesnotexist');
}

function bodyOf(pattern: string, method: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (method === 'PATCH') return { description: 'scoped change' };
  if (pattern.endsWith('/simulate')) return { status: 'received' };
  if (pattern === '/wf/rate') return rateSampleAll();
  return {};
}

const address = () => `203.0.113.${Math.floor(Math.random() * 254) + 1}`;
const send = (pattern: string, method: string, env: Env, token: string) =>
  call(pathOf(pattern, env), { env, method, token, body: bodyOf(pattern, method), headers: { 'x-forwarded-for': address() } });

/** Let through: the operation answered, whatever it said of the request; the caller was not refused. */
function expectLetThrough(result: Awaited<ReturnType<typeof call>>) {
  expect([401, 403], result.text).not.toContain(result.status);
  expect(result.json?.error?.code).not.toBe('insufficient_scope');
}

describe('every route in the scope table', () => {
  it('the table covers the route table (a route added without a scope fails here and in lib/http/route-scopes.test.ts)', () => {
    for (const { method, pattern, scope } of cases) expect(scope, `${method} ${pattern}`).toBeDefined();
  });
});

describe.each(cases.filter(({ scope }) => scope !== CARRIER_OPERATIONS))(
  '$method $pattern ($env) needs $scope',
  ({ pattern, method, env, scope }) => {
    const required = scope as ApiScope;

    it('refuses a token with every other scope: 403 insufficient_scope naming the scope', async () => {
      const result = await send(pattern, method, env, allBut[env][required]);
      const error = expectError(result, 403, 'insufficient_scope');
      expect(error.message).toContain(`"${required}"`);
      expect(result.json.error.required_scope).toBe(required);
      expect(result.json.error.token_scopes).toEqual(API_SCOPES.filter((s) => s !== required));
      // Refused before the body is read: for /wf/package and /wf/manifest the envelope still carries IsSuccess.
      if (pattern === '/wf/manifest') expect(result.json.IsSuccess).toBe('false');
      if (pattern === '/wf/package') expect(result.json.IsSuccess).toBe(false);
    });

    it('lets a token with that scope alone through', async () => {
      expectLetThrough(await send(pattern, method, env, only[env][required]));
    });
  },
);

describe('the carrier operations route', () => {
  it('still refuses every shipper token with forbidden, whatever its scopes, and takes an operations token', async () => {
    const ops = (await createOpsToken({ name: 'scopes suite' })).token;
    for (const token of [owner.tokens.test, allBut.test.rates, only.test['manifests:write']]) {
      expectError(await call('/ops/scans', { env: 'test', token, body: {} }), 403, 'forbidden');
    }
    expectError(await call('/ops/scans', { env: 'test', token: ops, body: {} }), 422, 'validation_failed');
    // And an operations token on a shipper route: forbidden, not a scope question.
    expectError(await call('/wf/rate', { env: 'test', token: ops, body: rateSampleAll() }), 403, 'forbidden');
  });
});

describe('full access', () => {
  it("a token from before scopes (the migration's defaults) calls every route", async () => {
    for (const { pattern, method, env, scope } of cases) {
      if (scope === CARRIER_OPERATIONS) continue;
      const result = await send(pattern, method, env, legacy[env]);
      expect([401, 403], `${method} ${pattern} (${env}): ${result.text}`).not.toContain(result.status);
    }
  });

  it('a token made with every scope listed calls every route too', async () => {
    const listed = await createApiToken({ accountId: owner.accountId, environment: 'test', scopes: [...API_SCOPES] });
    expectLetThrough(await call('/wf/rate', { env: 'test', token: listed.token, body: rateSampleAll() }));
    expectLetThrough(await call(`/manifests/${manifestIds.test}`, { env: 'test', method: 'GET', token: listed.token }));
    expectLetThrough(await call('/requests', { env: 'test', method: 'GET', token: listed.token }));
  });
});

describe('what comes before the scope', () => {
  it('a scoped token in the other environment is wrong_environment, a revoked one unauthorized: who asks is decided first', async () => {
    expectError(await call('/wf/rate', { env: 'live', token: only.test.rates, body: rateSampleAll() }), 401, 'wrong_environment');
    expectError(await call('/wf/manifest', { env: 'live', token: only.test.rates, body: {} }), 401, 'wrong_environment');
    const gone = await createApiToken({ accountId: owner.accountId, environment: 'test', scopes: ['rates'] });
    await db.apiToken.update({ where: { tokenHash: hashToken(gone.token) }, data: { revokedAt: new Date() } });
    await expect
      .poll(async () => (await call('/wf/rate', { env: 'test', token: gone.token, body: rateSampleAll() })).status, {
        timeout: 15_000,
      })
      .toBe(401);
  });

  it('a 403 for a missing scope says nothing of whether the resource exists', async () => {
    const mine = await call(`/manifests/${manifestIds.test}`, { env: 'test', method: 'GET', token: only.test.rates });
    const missing = await call('/manifests/MAN-DOESNOTEXIST0000', { env: 'test', method: 'GET', token: only.test.rates });
    expectError(mine, 403, 'insufficient_scope');
    expectError(missing, 403, 'insufficient_scope');
    expect(mine.json.error.message).toBe(missing.json.error.message);
  });

  it("a refusal for a missing scope is in the account's request log", async () => {
    const requestId = `req_scope_${tracking()}`;
    expectError(
      await call('/wf/manifest', { env: 'test', token: only.test.rates, body: {}, headers: { 'x-request-id': requestId } }),
      403,
      'insufficient_scope',
    );
    await expect
      .poll(
        async () =>
          (await call(`/requests/${requestId}`, { env: 'test', method: 'GET', token: only.test['requests:read'] })).json?.status,
        { timeout: 15_000 },
      )
      .toBe(403);
  });
});

describe('another account', () => {
  it("a stranger's token with the right scope finds nothing of the owner's; without it, it is refused for the scope alone", async () => {
    const reader = await createApiToken({
      accountId: stranger.accountId,
      environment: 'test',
      scopes: ['manifests:read', 'webhooks'],
    });
    expectError(
      await call(`/manifests/${manifestIds.test}`, { env: 'test', method: 'GET', token: reader.token }),
      404,
      'not_found',
    );
    expectError(
      await call(`/packages/${trackingNumbers.test}`, { env: 'test', method: 'GET', token: reader.token }),
      404,
      'not_found',
    );
    expectError(
      await call(`/webhooks/${endpointIds.test}`, { env: 'test', method: 'GET', token: reader.token }),
      404,
      'not_found',
    );
    const list = await call('/manifests', { env: 'test', method: 'GET', token: reader.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(manifestIds.test);
    const writer = await createApiToken({ accountId: stranger.accountId, environment: 'test', scopes: ['manifests:read'] });
    expectError(
      await call(`/manifests/${manifestIds.test}/cancel`, { env: 'test', token: writer.token, body: {} }),
      403,
      'insufficient_scope',
    );
    // The owner's manifest is untouched by either.
    const read = await call(`/manifests/${manifestIds.test}`, { env: 'test', method: 'GET', token: only.test['manifests:read'] });
    expect(read.status, read.text).toBe(200);
  });
});

describe('creating a scoped token in the portal (POST /portal-api/tokens)', () => {
  let shipper: Shipper;
  beforeAll(async () => {
    shipper = await signUp('Scopes');
  });

  it('makes a token with exactly the chosen scopes, records who made it, and the token is held to them', async () => {
    const created = await portalCall(shipper, 'POST', '/portal-api/tokens', { body: { name: 'Rates only', scopes: ['rates'] } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      name: 'Rates only',
      scopes: ['rates'],
      createdBy: { email: expect.stringMatching(/^scopes-.*@example\.com$/) },
    });
    const token = created.json.token as string;
    expect((await call('/wf/rate', { env: 'test', token, body: rateSampleAll() })).status).toBe(200);
    const refused = expectError(await call('/wf/package', { env: 'test', token, body: {} }), 403, 'insufficient_scope');
    expect(refused.message).toContain('"manifests:write"');

    const listed = await portalCall(shipper, 'GET', '/portal-api/tokens');
    expect(listed.status).toBe(200);
    const row = (listed.json.tokens as { id: string; scopes: unknown; createdBy: unknown }[]).find(
      (t) => t.id === created.json.id,
    );
    expect(row).toMatchObject({ scopes: ['rates'], createdBy: { email: created.json.createdBy.email } });
    expect(listed.text).not.toContain(token);
  });

  it("keeps the scopes in the list's order, each once, and makes full access when scopes is left out or null", async () => {
    const ordered = await portalCall(shipper, 'POST', '/portal-api/tokens', {
      body: { name: 'Two', scopes: ['webhooks', 'rates'] },
    });
    expect(ordered.json.scopes).toEqual(['rates', 'webhooks']);
    for (const body of [{ name: 'Full' }, { name: 'Full null', scopes: null }]) {
      const full = await portalCall(shipper, 'POST', '/portal-api/tokens', { body });
      expect(full.status, full.text).toBe(201);
      expect(full.json.scopes).toBeNull();
      expectLetThrough(await call('/requests', { env: 'test', method: 'GET', token: full.json.token }));
    }
    // The API suite's own tokens (written straight to the database) have no creator.
    const listed = await portalCall(shipper, 'GET', '/portal-api/tokens');
    expect((listed.json.tokens as { createdBy: unknown }[]).filter((t) => t.createdBy === null)).toHaveLength(1);
  });

  it.each([
    ['an unknown scope', ['rates', 'admin'], 'scopes[1]', 'must be one of rates, manifests:read'],
    ['a scope named twice', ['rates', 'rates'], 'scopes', 'must not name a scope twice'],
    ['no scope at all', [], 'scopes', 'choose at least one scope'],
    ['a string, not a list', 'rates', 'scopes', ''],
    ['a scope that is no string', [7], 'scopes[0]', 'must be one of'],
    ['more names than there are scopes', [...API_SCOPES, 'rates'], 'scopes', `at most ${API_SCOPES.length}`],
  ])('refuses %s with validation_failed naming the field, and makes nothing', async (_label, scopes, path, message) => {
    const before = await db.apiToken.count({ where: { accountId: shipper.accountId } });
    const refused = await portalCall(shipper, 'POST', '/portal-api/tokens', { body: { name: 'Bad', scopes } });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.error.code).toBe('validation_failed');
    const details = refused.json.error.details as { path: string; message: string }[];
    expect(
      details.some((d) => d.path === path && d.message.includes(message)),
      refused.text,
    ).toBe(true);
    expect(await db.apiToken.count({ where: { accountId: shipper.accountId } })).toBe(before);
  });
});

describe('npm run token -- --scopes', () => {
  const databaseUrl = inject('databaseUrl');
  const token = (...args: string[]) =>
    run('node', ['dist/token.js', ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });

  it('prints a token with exactly those scopes and no creator', async () => {
    const account = `CLI scopes ${tracking()}`;
    const { stdout } = await token('--account', account, '--env', 'test', '--scopes', 'rates, manifests:read');
    const printed = stdout.trim();
    expect(printed).toMatch(/^ck_test_[A-Za-z0-9_-]{43}$/);
    const row = await db.apiToken.findUniqueOrThrow({
      where: { tokenHash: hashToken(printed) },
      select: { fullAccess: true, scopes: true, createdByUserId: true },
    });
    expect(row).toEqual({ fullAccess: false, scopes: ['rates', 'manifests:read'], createdByUserId: null });
    expect((await call('/wf/rate', { env: 'test', token: printed, body: rateSampleAll() })).status).toBe(200);
    expectError(await call('/wf/manifest', { env: 'test', token: printed, body: {} }), 403, 'insufficient_scope');
  }, 60_000);

  it('refuses an unknown scope, an empty list and scopes on an operations token, naming why', async () => {
    for (const [args, why] of [
      [['--account', 'CLI bad', '--scopes', 'rates,admin'], 'unknown scope "admin"'],
      [['--account', 'CLI bad', '--scopes', ','], 'name at least one scope'],
      [['--ops', '--scopes', 'rates'], 'an operations token has no scopes'],
    ] as const) {
      const failed = await token(...args).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(2);
      expect(failed?.stderr).toContain(why);
    }
  }, 60_000);
});
