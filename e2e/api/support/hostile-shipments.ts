import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { expect } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { hashToken } from '@/lib/auth/tokens';
import { db, pgPool } from '@/lib/db';
import { apiRoutes } from '@/lib/http/routes';
import { baseUrl, call, freshClientAddress, newAccount, pathFor, tracking, type Env, type TestAccount } from './api';
import { containerSample, packageSample } from './samples';

// The pieces of the hostile-* files that attack the manifests, packages and scans routes (their reads and lists,
// cancel, the simulator, POST /ops/scans, the documents), the probes and the portal's routes for the same, from
// outside, as a tester or an attacker would. Raw HTTP (node:http with the path as sent, node:net for bytes no client
// sends) where fetch would normalise. Every answer is either a correct success or a 4xx error envelope with a request
// id naming the field: never a 5xx, never another account's data, never a hang.

/** The API reached through `next start`'s route handlers (CI's first pass), not the production server. */
export const NEXT_START = process.env.TEST_SERVER === 'next';

// ---------------------------------------------------------------- raw HTTP

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
  bytes: Buffer;
}

export const target = new URL(baseUrl);
const tally: Record<string, number> = {};
/** Counts the attacks of a class that a file sent (reportAttacks prints the table). */
export const count = (kind: string, n = 1) => {
  tally[kind] = (tally[kind] ?? 0) + n;
};

/** For bodies the server refuses before reading them: on a kept-alive connection it drains the rest, so the answer arrives. */
export const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** For a file's afterAll: closes the kept-alive connections and prints how many attacks of each class the file sent. */
export function reportAttacks(file: string) {
  keepAlive.destroy();
  console.log(`${file} tally: ${JSON.stringify(tally)}`);
}

/** One request with the path exactly as given (node:http sends it unnormalised: `..`, `%2F`, `%ZZ` stay). */
export function raw(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number; keepAlive?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body;
    let answered = false;
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        agent: options.keepAlive ? keepAlive : false,
        headers: {
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
            : {}),
          ...options.headers,
        },
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json, bytes });
        });
        response.on('error', reject);
      },
    );
    // A hang is a failure of its own, named, not a test timeout.
    request.setTimeout(options.timeoutMs ?? 30_000, () =>
      request.destroy(new Error(`no answer in ${options.timeoutMs ?? 30_000} ms: ${method} ${path.slice(0, 200)}`)),
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A server that answers before reading a refused body (413) and closes: our write fails, its answer stands.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') {
        setTimeout(() => (answered ? undefined : reject(error)), 2_000);
        return;
      }
      reject(error);
    });
    request.end(body);
  });
}

/** Bytes on a socket: a request line no HTTP client would send (a raw NUL, a raw lone surrogate's bytes). */
export function socketRequest(bytes: Buffer, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

export function envelope(answer: Answer, status: number, code: string, field?: string) {
  const where = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBe(status);
  expect(answer.json?.error?.code, where).toBe(code);
  expect(typeof answer.json?.error?.message, where).toBe('string');
  expect(answer.headers['x-request-id'], where).toMatch(/^req_[0-9a-f]{32}$/);
  if (field !== undefined)
    expect(
      answer.json.error.details?.map((d: { path: string }) => d.path),
      where,
    ).toContain(field);
  return answer.json.error as {
    code: string;
    message: string;
    details?: { path: string; message: string }[];
    current_status?: string;
  };
}

export function ok(answer: Answer, status = 200) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  return answer.json;
}

export const api = (env: Env, path: string) => pathFor(env, path);
export const auth = (token: string) => ({ authorization: `Token ${token}` });
export const jsonBody = (value: unknown) => JSON.stringify(value);
// Each refused-token request (and each sign-up) its own address (a header the server trusts from 127.0.0.1 here), so
// the per-address limiters never block the suite's own address, and no address another file used up blocks these.
export const address = freshClientAddress;

// ---------------------------------------------------------------- accounts and data

/** Several tokens of one account: the per-token rate limit (burst 300 here) is not what is tested. */
export class Tokens {
  private next = 0;
  constructor(readonly list: string[]) {}
  get(): string {
    return this.list[this.next++ % this.list.length];
  }
}

async function tokens(accountId: string, env: Env, n: number): Promise<Tokens> {
  const made = await Promise.all(Array.from({ length: n }, () => createApiToken({ accountId, environment: env })));
  return new Tokens(made.map((t) => t.token));
}

export async function createContainer(token: string, numbers: string[], env: Env = 'test') {
  const containerId = `ULD-${randomUUID().slice(0, 8)}`;
  const result = await call('/wf/manifest', { env, token, body: containerSample(containerId, numbers) });
  expect(result.status, result.text).toBe(200);
  return { manifestId: result.json.ManifestID as string, containerId };
}

export async function createDaily(token: string, number: string, env: Env = 'test') {
  const result = await call('/wf/package', { env, token, body: packageSample(number) });
  expect(result.status, result.text).toBe(200);
  return result.json.ManifestID as string;
}

// The attacked account and its attacker, their tokens, an ops token (and a revoked one), a revoked shipper token, and
// the owner's manifests: set by setUpAttackedAccounts, which a file runs in its beforeAll.
export let owner: TestAccount;
export let ownerTest: Tokens;
export let ownerLive: Tokens;
export let strangerTest: Tokens;
export let ops: string;
export let revokedOps: string;
export let revokedShipper: string;
export const owned = {
  containerManifest: '',
  containerId: '',
  containerNumbers: [] as string[],
  dailyManifest: '',
  dailyNumber: '',
  liveManifest: '',
  liveNumber: '',
};

export async function setUpAttackedAccounts(): Promise<void> {
  const [attacked, stranger] = await Promise.all([newAccount('Attacked'), newAccount('Attacker')]);
  owner = attacked;
  [ownerTest, ownerLive, strangerTest] = await Promise.all([
    tokens(owner.accountId, 'test', 8),
    tokens(owner.accountId, 'live', 2),
    tokens(stranger.accountId, 'test', 3),
  ]);
  ops = (await createOpsToken({ name: 'attack suite' })).token;
  revokedOps = (await createOpsToken({ name: 'attack suite, revoked' })).token;
  await pgPool().query('UPDATE ops_tokens SET revoked_at = now() WHERE token_hash = $1', [hashToken(revokedOps)]);
  const gone = await createApiToken({ accountId: owner.accountId, environment: 'test' });
  revokedShipper = gone.token;
  await db.apiToken.update({ where: { tokenHash: hashToken(revokedShipper) }, data: { revokedAt: new Date() } });

  owned.containerNumbers = [tracking('ATC'), tracking('ATC')];
  const c = await createContainer(owner.tokens.test, owned.containerNumbers);
  owned.containerManifest = c.manifestId;
  owned.containerId = c.containerId;
  owned.dailyNumber = tracking('ATD');
  owned.dailyManifest = await createDaily(owner.tokens.test, owned.dailyNumber);
  owned.liveNumber = tracking('ATL');
  owned.liveManifest = (await createContainer(owner.tokens.live, [owned.liveNumber], 'live')).manifestId;
}

// ---------------------------------------------------------------- the routes under attack

// Read from the route table so a new manifest, package, scan or document route is attacked too.
export const LIFECYCLE_PATTERNS = apiRoutes()
  .map((route) => route.pattern)
  .filter((pattern) => /^\/(manifests|packages|ops)\b/.test(pattern));

/** A pattern with the owner's ids (or the given ones) filled in. */
export function fill(pattern: string, ids: { id?: string; trackingNumber?: string } = {}): string {
  return pattern
    .replace(':id', ids.id ?? owned.containerManifest)
    .replace(':TrackingNumber', ids.trackingNumber ?? owned.dailyNumber);
}

export function methodOf(pattern: string): 'GET' | 'POST' {
  const route = apiRoutes().find((r) => r.pattern === pattern);
  return route?.methods.GET ? 'GET' : 'POST';
}
