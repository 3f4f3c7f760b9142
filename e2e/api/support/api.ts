import { randomBytes, randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import { createApiToken, findOrCreateAccount } from '@/lib/accounts/create-api-token';
import { enforceContract } from './contract';
import { containerSample, packageSample } from './samples';

export const baseUrl = inject('baseUrl');

export type Env = 'test' | 'live';

/**
 * A client address no other request of the run has used, for a test that counts a per-address limit: an IPv6
 * address in a /64 of its own (the limits count IPv6 by /64; lib/net/address-key.ts), from 2^32 under the
 * documentation prefix. The limits live in the run's one database, so a random address among 250 IPv4 ones was
 * shared, now and then, with another file's sign-ups, whose requests used the limit up first.
 */
export const freshClientAddress = (): string => {
  const [a, b] = [randomBytes(2).toString('hex'), randomBytes(2).toString('hex')];
  return `2001:db8:${a}:${b}::1`;
};

export function pathFor(env: Env, path: string): string {
  return `${env === 'test' ? '/version-test/api/1.1' : '/api/1.1'}${path}`;
}

export interface TestAccount {
  accountId: string;
  name: string;
  tokens: Record<Env, string>;
}

/** A fresh account with one test and one live token, written straight to the run's database. */
export async function newAccount(label = 'Shipper'): Promise<TestAccount> {
  const account = await findOrCreateAccount({ name: `${label} ${randomUUID()}` });
  const test = await createApiToken({ accountId: account.id, environment: 'test' });
  const live = await createApiToken({ accountId: account.id, environment: 'live' });
  return { accountId: account.id, name: account.name, tokens: { test: test.token, live: live.token } };
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
}

export async function call(
  path: string,
  options: {
    env?: Env;
    token?: string | null;
    body?: unknown;
    rawBody?: string;
    method?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<CallResult> {
  const env = options.env ?? 'test';
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Token ${options.token}`;
  const response = await fetch(baseUrl + pathFor(env, path), {
    method: options.method ?? 'POST',
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  let requestBody: unknown = options.body;
  if (options.rawBody !== undefined) {
    try {
      requestBody = JSON.parse(options.rawBody);
    } catch {
      requestBody = undefined;
    }
  }
  // Every exchange against the OpenAPI document: drift fails the test that met it (support/contract.ts).
  enforceContract({
    method: options.method ?? 'POST',
    path,
    status: response.status,
    contentType: response.headers.get('content-type'),
    requestBody,
    responseBody: json,
  });
  return { status: response.status, headers: response.headers, text, json };
}

/** A unique tracking number for this run. */
export function tracking(prefix = 'TN'): string {
  return `${prefix}${randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase()}`;
}

/** Asserts the error envelope of design.md and returns it. */
export function expectError(result: CallResult, status: number, code: string) {
  if (result.status !== status || result.json?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${result.status}: ${result.text}`);
  }
  return result.json.error as { code: string; message: string; details?: { path: string; message: string }[] };
}

/** One carrier scan of a live package by `tracking_number`, through POST /ops/scans with an operations token; 200 or it throws. */
export async function liveScan(
  opsToken: string,
  trackingNumber: string,
  event: string,
  location = '90210',
  extra: Record<string, unknown> = {},
): Promise<void> {
  const scan = {
    scan_id: `scan-${randomUUID()}`,
    tracking_number: trackingNumber,
    event,
    location,
    occurred_at: new Date().toISOString(),
  };
  const result = await call('/ops/scans', { env: 'live', token: opsToken, body: { scans: [{ ...scan, ...extra }] } });
  if (result.status !== 200) throw new Error(`scan ${event} of ${trackingNumber}: ${result.status} ${result.text}`);
}

/**
 * A container manifest of `count` new packages and one package on its day's daily manifest, in the test environment of
 * `token`'s account: the two kinds of manifest every document operation reads. Tracking numbers start with `prefix`.
 */
export async function containerAndDaily(token: string, prefix: string, count = 2) {
  const containerNumbers = Array.from({ length: count }, () => tracking(`${prefix}C`));
  const created = await call('/wf/manifest', {
    token,
    body: containerSample(`${prefix}-${randomUUID().slice(0, 8)}`, containerNumbers),
  });
  expect(created.status, created.text).toBe(200);
  const dailyNumber = tracking(`${prefix}P`);
  const pkg = await call('/wf/package', { token, body: packageSample(dailyNumber) });
  expect(pkg.status, pkg.text).toBe(200);
  return {
    containerId: created.json.ManifestID as string,
    containerNumbers,
    dailyId: pkg.json.ManifestID as string,
    dailyNumber,
  };
}
