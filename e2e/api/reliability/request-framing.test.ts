import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropFreshDatabase, freshDatabase, startApiServer, type ServerProcess } from '../support/processes';
import { rawExchange } from '../support/raw-socket';

// What `npm start`'s server does with headers and bodies that trickle in. Raw sockets, on a production server of its
// own (e2e/api/http.test.ts has request targets that are no path, in both server modes).

let server: ServerProcess;
let database: string;

beforeAll(async () => {
  database = await freshDatabase(inject('databaseUrl'), 'request_framing');
  server = await startApiServer(database);
});

afterAll(async () => {
  await server?.kill();
  if (database) await dropFreshDatabase(database);
});

describe('headers that trickle in', () => {
  it('closes a connection whose headers have not all arrived within 10 s, with the 408 envelope', async () => {
    const lines = [
      'GET /version-test/api/1.1/packages HTTP/1.1\r\n',
      ...Array.from({ length: 20 }, (_, i) => `X-Trickle-${i}: ${i}\r\n`),
    ];
    const answer = await rawExchange(server.baseUrl, lines, 2_000);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error.code).toBe('request_timeout');
    // The documented 10 s, held to the second (Node's own check came every 30 s: 13.7-37.8 s measured).
    expect(answer.ms).toBeGreaterThanOrEqual(9_500);
    expect(answer.ms).toBeLessThan(12_000);
  });
});

describe('a body that trickles in', () => {
  it('closes a portal request whose body has not all arrived within the whole-request 60 s, with the 408 envelope', async () => {
    const body = '{"email":"a@example.com","password":"' + 'x'.repeat(60) + '"}';
    const head =
      'POST /portal-api/session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`;
    // One byte every 2 s: the body would take over 3 minutes, so only the deadline can end it.
    const answer = await rawExchange(server.baseUrl, [head, ...body.split('')], 2_000, 90_000);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error.code).toBe('request_timeout');
    expect(answer.ms).toBeGreaterThanOrEqual(59_000);
    expect(answer.ms).toBeLessThan(63_000);
  }, 100_000);
});
