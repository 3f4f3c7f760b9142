import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropFreshDatabase, freshDatabase, startApiServer, type ServerProcess } from '../support/processes';

// What `npm start`'s server does with requests no HTTP client library sends: a request target that is no path
// (`OPTIONS *`, `GET *`) and headers that trickle in. Raw sockets, on a production server of its own.

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

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the first byte written to the connection's close. */
  ms: number;
}

/** Writes `parts` to a new connection, `gapMs` apart, and reads until the server closes it. */
function raw(parts: string[], gapMs = 0, timeoutMs = 30_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const started = Date.now();
    const timers: NodeJS.Timeout[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => {
      parts.forEach((part, i) => timers.push(setTimeout(() => socket.writable && socket.write(part), i * gapMs)));
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      timers.forEach(clearTimeout);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), ms: Date.now() - started });
    });
  });
}

describe('request targets that are no path', () => {
  it('answers OPTIONS * with 204, Allow and a request id', async () => {
    const answer = await raw(['OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    expect(answer.status).toBe(204);
    expect(answer.headers.allow).toContain('POST');
    expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it.each(['GET', 'POST', 'DELETE', 'HEAD'])('answers %s * with the 400 envelope', async (method) => {
    const answer = await raw([`${method} * HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`]);
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    if (method !== 'HEAD')
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('path') });
  });
});

describe('headers that trickle in', () => {
  it('closes a connection whose headers have not all arrived within 10 s, with the 408 envelope', async () => {
    const lines = [
      'GET /version-test/api/1.1/packages HTTP/1.1\r\n',
      ...Array.from({ length: 20 }, (_, i) => `X-Trickle-${i}: ${i}\r\n`),
    ];
    const answer = await raw(lines, 2_000);
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
    const answer = await raw([head, ...body.split('')], 2_000, 90_000);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error.code).toBe('request_timeout');
    expect(answer.ms).toBeGreaterThanOrEqual(59_000);
    expect(answer.ms).toBeLessThan(63_000);
  }, 100_000);
});
