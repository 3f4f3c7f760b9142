import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { rateSampleAll } from '../support/samples';
import { dropFreshDatabase, freshDatabase, seedAccount, startApiServer, type ServerProcess } from '../support/processes';

// Failed token authentications are counted in PostgreSQL (docs/decisions/rate-limiting.md): two
// instances on one database allow one address API_AUTH_FAILURES_PER_MINUTE failures in all, not
// that many each. (With per-process counts each would allow 10 here: 20 in all.)

const servers: ServerProcess[] = [];
let database: string | undefined;

afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGTERM')));
  if (database) await dropFreshDatabase(database);
});

function post(base: string, localAddress: string, token: string): Promise<number> {
  const url = new URL(`${base}/version-test/api/1.1/wf/rate`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(rateSampleAll()));
  });
}

describe('limits shared by instances', () => {
  it('two instances on one database refuse an address guessing after 10 failed authentications in all, split between them, and still serve its good token', async () => {
    database = await freshDatabase(inject('databaseUrl'), 'shared_limits');
    const { token } = await seedAccount(database);
    const env = { API_AUTH_FAILURES_PER_MINUTE: '10', API_RATE_LIMIT_PER_SECOND: '1000', API_RATE_LIMIT_BURST: '1000' };
    const [a, b] = await Promise.all([startApiServer(database, env), startApiServer(database, env)]);
    servers.push(a, b);
    const guesser = '127.0.0.6';
    const bad = `ck_test_${'G'.repeat(43)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await post(i % 2 ? b.baseUrl : a.baseUrl, guesser, bad));
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 401));
    // The 11th guess, on either instance, is refused; a good token from that address still passes, on both.
    expect(await post(a.baseUrl, guesser, bad)).toBe(429);
    expect(await post(b.baseUrl, guesser, bad)).toBe(429);
    expect(await post(a.baseUrl, guesser, token)).toBe(200);
    expect(await post(b.baseUrl, guesser, token)).toBe(200);
    // Another address is not affected.
    expect(await post(a.baseUrl, '127.0.0.7', token)).toBe(200);
    expect(await post(b.baseUrl, '127.0.0.7', token)).toBe(200);
  });
});
