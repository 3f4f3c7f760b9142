import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '@/lib/auth/tokens';
import { db } from '@/lib/db';
import { apiRoutes } from '@/lib/http/routes';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { call, expectError, newAccount, tracking, type Env, type TestAccount } from './support/api';
import { containerSample } from './support/samples';

// Every API endpoint, in both environments, against every kind of caller who must be refused:
// no token, a malformed token, an unknown token, a revoked token, the other environment's token,
// and another account's valid token (which must learn nothing of the owner's resources).

let owner: TestAccount;
let stranger: TestAccount;
let revoked: string;
const endpointIds: Record<Env, string> = { test: '', live: '' };
// The owner's container manifest and one of its packages in each environment (the lifecycle routes' :id and :TrackingNumber).
const manifestIds: Record<Env, string> = { test: '', live: '' };
const trackingNumbers: Record<Env, string> = { test: '', live: '' };
// The owner's request that created the manifest: the request log's :id.
const requestIds: Record<Env, string> = { test: '', live: '' };
let opsToken: string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newAccount('Owner'), newAccount('Stranger')]);
  const gone = await newAccount('Gone');
  revoked = gone.tokens.test;
  await db.apiToken.update({ where: { tokenHash: hashToken(revoked) }, data: { revokedAt: new Date() } });
  for (const env of ['test', 'live'] as const) {
    const created = await call('/webhooks', {
      env,
      token: owner.tokens[env],
      body: { url: 'https://93.184.215.14/owner-only', events: ['package.sorting'], description: 'owner secret description' },
    });
    expect(created.status, created.text).toBe(201);
    endpointIds[env] = created.json.id;
    trackingNumbers[env] = tracking('ACM');
    const manifest = await call('/wf/manifest', {
      env,
      token: owner.tokens[env],
      body: containerSample(`ULD-${trackingNumbers[env]}`, [trackingNumbers[env]]),
    });
    expect(manifest.status, manifest.text).toBe(200);
    manifestIds[env] = manifest.json.ManifestID;
    requestIds[env] = manifest.headers.get('x-request-id') ?? '';
  }
  opsToken = (await createOpsToken({ name: 'access matrix' })).token;
});

const cases = apiRoutes().flatMap((route) =>
  Object.keys(route.methods).flatMap((method) =>
    (['test', 'live'] as const).map((env) => ({
      pattern: route.pattern,
      method,
      env,
      ops: route.auth === 'ops',
      absent: route.testOnly === true && env === 'live',
    })),
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
  // A valid change for PATCH and the simulator, so that only ownership can refuse it.
  if (method === 'PATCH') {
    if (pattern.startsWith('/packages/')) return { ToName: 'taken over' };
    if (pattern.startsWith('/manifests/')) return { FlightNumber: 'LH401' };
    return { description: 'taken over' };
  }
  if (pattern.endsWith('/simulate')) return { status: 'received' };
  return {};
}

// Each case its own address (a header value only), so the failed-authentication limiter counts it alone.
const address = () => `203.0.113.${Math.floor(Math.random() * 254) + 1}`;

describe.each(cases)('$method $pattern ($env)', ({ pattern, method, env, ops, absent }) => {
  const send = (token: string | null, headers: Record<string, string> = {}) =>
    call(pathOf(pattern, env), {
      env,
      method,
      token,
      body: bodyOf(pattern, method),
      headers: { 'x-forwarded-for': address(), ...headers },
    });

  if (absent) {
    // The simulator on the live path: not there for anyone, the owner included.
    it('is not found for every caller', async () => {
      for (const token of [null, owner.tokens[env], stranger.tokens[env], owner.tokens.test, opsToken]) {
        expectError(await send(token), 404, 'not_found');
      }
    });
    return;
  }

  if (ops) {
    it('refuses every shipper token with 403 and takes an operations token', async () => {
      expectError(await send(owner.tokens[env]), 403, 'forbidden');
      expectError(await send(stranger.tokens[env]), 403, 'forbidden');
      // The operations token passes authentication; the empty body is then refused for its content, or the id (a
      // webhook endpoint's here) names nothing of its kind.
      if (pattern.includes(':id')) expectError(await send(opsToken), 404, 'not_found');
      else expectError(await send(opsToken), 422, 'validation_failed');
    });
  } else {
    it('refuses a carrier operations token with 403', async () => {
      expectError(await send(opsToken), 403, 'forbidden');
    });
  }

  it('refuses no token, a malformed one, an unknown one and a revoked one with 401', async () => {
    for (const token of [null, 'Token', `ck_${env}_short`, `ck_${env}_${'Z'.repeat(43)}`, env === 'test' ? revoked : null]) {
      const result = await send(token);
      expectError(result, 401, 'unauthorized');
      expect(result.headers.get('www-authenticate')).toBe('Token');
    }
  });

  it("refuses the other environment's token with wrong_environment", async () => {
    const other: Env = env === 'test' ? 'live' : 'test';
    expectError(await send(owner.tokens[other]), 401, 'wrong_environment');
  });

  it("shows another account nothing of the owner's resources", async () => {
    if (ops) return; // Covered above: no shipper token reaches it.
    const result = await send(stranger.tokens[env]);
    if (pattern.includes(':id') || pattern.includes(':TrackingNumber')) {
      // Someone else's endpoint is indistinguishable from one that does not exist.
      expectError(result, 404, 'not_found');
    } else if (method === 'GET') {
      // The lists without an id: the stranger's own, which are empty.
      expect(['/webhooks', '/manifests', '/packages', '/events', '/requests', '/pickups', '/invoices']).toContain(pattern);
      expect(result.status, result.text).toBe(200);
      // The stranger's own request log holds its own requests of this suite, and nothing of the owner's.
      if (pattern === '/requests') expect((result.json.data as { id: string }[]).map((r) => r.id)).not.toContain(requestIds[env]);
      else
        expect(result.json).toEqual(
          pattern === '/webhooks'
            ? { object: 'list', data: [], has_more: false }
            : { object: 'list', data: [], has_more: false, next_cursor: null },
        );
    } else if (pattern === '/invoices/close') {
      // The test path's close issues the caller's own open period: the stranger has nothing open.
      expect(result.json).toEqual({ object: 'invoice_close', invoice: null });
    } else {
      // A create (POST /wf/*, POST /webhooks) with the empty body: refused for its content, nothing stored.
      expect(method).toBe('POST');
      expectError(result, 422, 'validation_failed');
    }
    expect(result.text).not.toContain('owner-only');
    // The stranger's own log holds the paths it sent, the owner's tracking number among them (its own 404s).
    if (pattern !== '/requests') expect(result.text).not.toContain(trackingNumbers[env]);
    expect(result.text).not.toContain('owner secret description');
  });
});

describe('the owner, for contrast', () => {
  it('reads its own endpoint in each environment', async () => {
    for (const env of ['test', 'live'] as const) {
      const result = await call(`/webhooks/${endpointIds[env]}`, {
        env,
        method: 'GET',
        token: owner.tokens[env],
        headers: { 'x-forwarded-for': address() },
      });
      expect(result.status).toBe(200);
      // Nothing the stranger sent changed it.
      expect(result.json.description).toBe('owner secret description');
      expect(result.json.enabled).toBe(true);
    }
    // And the owner's endpoint is not found through the other environment.
    const crossed = await call(`/webhooks/${endpointIds.live}`, { env: 'test', method: 'GET', token: owner.tokens.test });
    expectError(crossed, 404, 'not_found');
  });

  it('reads its own request in each environment, and not through the other', async () => {
    for (const env of ['test', 'live'] as const) {
      const result = await call(`/requests/${requestIds[env]}`, {
        env,
        method: 'GET',
        token: owner.tokens[env],
        headers: { 'x-forwarded-for': address() },
      });
      expect(result.status, result.text).toBe(200);
      expect(result.json).toMatchObject({ id: requestIds[env], method: 'POST', path: '/wf/manifest', status: 200 });
    }
    expectError(
      await call(`/requests/${requestIds.live}`, { env: 'test', method: 'GET', token: owner.tokens.test }),
      404,
      'not_found',
    );
  });
});
