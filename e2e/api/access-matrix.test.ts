import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '@/lib/auth/tokens';
import { db } from '@/lib/db';
import { apiRoutes } from '@/lib/http/routes';
import { call, expectError, newAccount, type Env, type TestAccount } from './support/api';

// Every API endpoint, in both environments, against every kind of caller who must be refused:
// no token, a malformed token, an unknown token, a revoked token, the other environment's token,
// and another account's valid token (which must learn nothing of the owner's resources).

let owner: TestAccount;
let stranger: TestAccount;
let revoked: string;
const endpointIds: Record<Env, string> = { test: '', live: '' };

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newAccount('Owner'), newAccount('Stranger')]);
  const gone = await newAccount('Gone');
  revoked = gone.tokens.test;
  await db.apiToken.update({ where: { tokenHash: hashToken(revoked) }, data: { revokedAt: new Date() } });
  for (const env of ['test', 'live'] as const) {
    const created = await call('/webhooks', { env, token: owner.tokens[env], body: { url: 'https://93.184.215.14/owner-only', events: ['package.sorting'], description: 'owner secret description' } });
    expect(created.status, created.text).toBe(201);
    endpointIds[env] = created.json.id;
  }
});

const cases = apiRoutes().flatMap((route) =>
  Object.keys(route.methods).flatMap((method) => (['test', 'live'] as const).map((env) => ({ pattern: route.pattern, method, env }))),
);

function pathOf(pattern: string, env: Env): string {
  return pattern.replace(':id', endpointIds[env]).replace(':deliveryId', 'msg_doesnotexist').replace(':trackingNumber', 'TNDOESNOTEXIST');
}

// Each case its own address (a header value only), so the failed-authentication limiter counts it alone.
const address = () => `203.0.113.${Math.floor(Math.random() * 254) + 1}`;

describe.each(cases)('$method $pattern ($env)', ({ pattern, method, env }) => {
  const send = (token: string | null, headers: Record<string, string> = {}) =>
    call(pathOf(pattern, env), {
      env,
      method,
      token,
      // A valid change for PATCH, so that only ownership can refuse it.
      body: method === 'GET' || method === 'DELETE' ? undefined : method === 'PATCH' ? { description: 'taken over' } : {},
      headers: { 'x-forwarded-for': address(), ...headers },
    });

  it('refuses no token, a malformed one, an unknown one and a revoked one with 401', async () => {
    for (const token of [null, 'Token', `ck_${env}_short`, `ck_${env}_${'Z'.repeat(43)}`, env === 'test' ? revoked : null]) {
      const result = await send(token);
      expectError(result, 401, 'unauthorized');
      expect(result.headers.get('www-authenticate')).toBe('Token');
    }
  });

  it('refuses the other environment\'s token with wrong_environment', async () => {
    const other: Env = env === 'test' ? 'live' : 'test';
    expectError(await send(owner.tokens[other]), 401, 'wrong_environment');
  });

  it('shows another account nothing of the owner\'s resources', async () => {
    const result = await send(stranger.tokens[env]);
    if (pattern.includes(':id') || pattern.includes(':trackingNumber')) {
      // Someone else's endpoint is indistinguishable from one that does not exist.
      expectError(result, 404, 'not_found');
    } else if (method === 'GET') {
      // The only list without an id (GET /webhooks): the stranger's own, which is empty.
      expect(pattern).toBe('/webhooks');
      expect(result.status, result.text).toBe(200);
      expect(result.json).toEqual({ object: 'list', data: [], has_more: false });
    } else {
      // A create (POST /wf/*, POST /webhooks) with the empty body: refused for its content, nothing stored.
      expect(method).toBe('POST');
      expectError(result, 422, 'validation_failed');
    }
    expect(result.text).not.toContain('owner-only');
    expect(result.text).not.toContain('owner secret description');
  });
});

describe('the owner, for contrast', () => {
  it('reads its own endpoint in each environment', async () => {
    for (const env of ['test', 'live'] as const) {
      const result = await call(`/webhooks/${endpointIds[env]}`, { env, method: 'GET', token: owner.tokens[env], headers: { 'x-forwarded-for': address() } });
      expect(result.status).toBe(200);
      // Nothing the stranger sent changed it.
      expect(result.json.description).toBe('owner secret description');
      expect(result.json.enabled).toBe(true);
    }
    // And the owner's endpoint is not found through the other environment.
    const crossed = await call(`/webhooks/${endpointIds.live}`, { env: 'test', method: 'GET', token: owner.tokens.test });
    expectError(crossed, 404, 'not_found');
  });
});
