import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '@/lib/http/routes';
import {
  LIFECYCLE_PATTERNS,
  address,
  api,
  auth,
  count,
  envelope,
  fill,
  jsonBody,
  methodOf,
  ok,
  ops,
  owned,
  owner,
  ownerLive,
  ownerTest,
  raw,
  reportAttacks,
  revokedOps,
  revokedShipper,
  setUpAttackedAccounts,
  strangerTest,
} from './support/hostile-shipments';

// Who may ask on the manifests, packages and scans routes: an ops token on a shipper's route and a shipper's token on
// POST /ops/scans, revoked tokens, the other environment's token, another account's ids, and scans sent to the other
// environment. support/hostile-shipments.ts has the raw HTTP and the attacked accounts.

beforeAll(setUpAttackedAccounts);
afterAll(() => reportAttacks('hostile-access'));

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
        if (route?.auth === 'ops') {
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
    // The carrier's own routes take no shipper token at all (403, above).
    const shipperRoutes = LIFECYCLE_PATTERNS.filter((p) => apiRoutes().find((r) => r.pattern === p)?.auth !== 'ops');
    for (const pattern of shipperRoutes.filter((p) => p.includes(':'))) {
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
